import { Redirect } from './console-request';

/**
 * A redirect answering a form sent again with a request key already used (a double click, a resent
 * POST): the first send made the change and was audited; this one changed nothing, so ConsoleAuditor
 * records nothing for it.
 */
export class ReplayRedirect extends Redirect {}
