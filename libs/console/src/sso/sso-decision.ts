/** Who the issuer says signed in: claims of a validated ID token (and the UserInfo endpoint). */
export interface SsoIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

/** The parts of a console user the decision needs. */
export interface SsoAccount {
  id: string;
  email: string;
  oidcSubject: string | null;
  disabled: boolean;
}

type SsoRefusal = 'disabled' | 'no_verified_email' | 'linked_elsewhere' | 'unknown_user';

export type SsoDecision =
  | { kind: 'sign_in'; userId: string }
  | { kind: 'link'; userId: string }
  | { kind: 'create'; email: string; name?: string }
  | { kind: 'refuse'; reason: SsoRefusal; message: string };

/** `oidc_subject` holds issuer and subject together: an issuer identifier has no fragment, so `#` separates. */
export const subjectKey = (issuer: string, subject: string) => `${issuer}#${subject}`;

const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * The mapping rule of single sign-on (README "Console single sign-on"), pure:
 * 1. a user linked to this (issuer, subject) signs in;
 * 2. otherwise only a verified email counts: the one console user with that email is linked on
 *    this first SSO sign-in, unless it is linked to another identity already;
 * 3. no such user: created as a member without workspaces when the email's domain is allowed;
 * 4. anything else is refused. A disabled user is refused at every step.
 */
export function decideSsoSignIn(
  identity: SsoIdentity,
  bySubject: SsoAccount | undefined,
  byEmail: SsoAccount | undefined,
  allowedDomains: readonly string[],
): SsoDecision {
  const disabled = (a: SsoAccount): SsoDecision => ({
    kind: 'refuse',
    reason: 'disabled',
    message: `The console user ${a.email} is disabled. Ask an operator to enable it.`,
  });
  if (bySubject) return bySubject.disabled ? disabled(bySubject) : { kind: 'sign_in', userId: bySubject.id };
  const email = identity.email?.trim().toLowerCase();
  if (!email || !identity.emailVerified) {
    return {
      kind: 'refuse',
      reason: 'no_verified_email',
      message: email
        ? `Your sign-in service has not verified the email ${email}, so it cannot be matched to a console user.`
        : 'Your sign-in service sent no email address, so it cannot be matched to a console user.',
    };
  }
  if (byEmail) {
    if (byEmail.disabled) return disabled(byEmail);
    if (byEmail.oidcSubject) {
      return {
        kind: 'refuse',
        reason: 'linked_elsewhere',
        message: `The console user ${byEmail.email} is linked to another single sign-on identity.`,
      };
    }
    return { kind: 'link', userId: byEmail.id };
  }
  if (allowedDomains.includes(emailDomain(email))) return { kind: 'create', email, name: identity.name };
  return {
    kind: 'refuse',
    reason: 'unknown_user',
    message: `No console user has the email ${email}. Ask an operator to create one, then sign in again.`,
  };
}
