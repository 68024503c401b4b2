import type { NamecheapConfig } from '@app/config';
import { RegistrarUnavailableError } from '../registrar.port';
import { NamecheapApiError, NamecheapError } from './namecheap-errors';
import { XmlNode, attr, child, children, parseXml } from './namecheap-xml';

/** Our Namecheap account, as NAMECHEAP_* configure it. */
export type NamecheapCredentials = NamecheapConfig;

/**
 * Namecheap's XML API: every command is a form POST to one URL with the global credentials; the answer is an
 * `ApiResponse` whose `Status` says OK or ERROR (always HTTP 200). Network failures, timeouts, non-200
 * answers and unparseable bodies become RegistrarUnavailableError; API errors become NamecheapApiError.
 */
export class NamecheapClient {
  constructor(private readonly credentials: NamecheapCredentials) {}

  async call(command: string, params: Record<string, string>): Promise<XmlNode> {
    const { apiUrl, apiUser, apiKey, username, clientIp, timeoutMs } = this.credentials;
    const body = new URLSearchParams({
      ApiUser: apiUser,
      ApiKey: apiKey,
      UserName: username,
      ClientIp: clientIp,
      Command: command,
      ...params,
    });
    let text: string;
    try {
      const response = await fetch(apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/xml' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
      if (response.status !== 200) {
        throw new RegistrarUnavailableError(`Namecheap ${command} answered HTTP ${response.status}`);
      }
    } catch (error) {
      if (error instanceof RegistrarUnavailableError) throw error;
      // AbortSignal.timeout rejects with a DOMException named TimeoutError (not always an Error instance).
      const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
      const reason = timedOut ? `timed out after ${timeoutMs} ms` : String(error);
      throw new RegistrarUnavailableError(`Namecheap ${command} could not be reached: ${reason}`);
    }
    return this.parse(command, text);
  }

  private parse(command: string, text: string): XmlNode {
    const root = parseXml(text, 'apiresponse');
    if (!root)
      throw new RegistrarUnavailableError(`Namecheap ${command} answered something that is not an ApiResponse`);
    if (attr(root, 'Status').toUpperCase() !== 'OK') {
      const errors: NamecheapError[] = children(child(root, 'errors'), 'error').map((e) => ({
        number: attr(e, 'Number'),
        text: attr(e, '#text').trim(),
      }));
      throw new NamecheapApiError(
        command,
        errors.length ? errors : [{ number: '', text: 'Namecheap answered ERROR without details' }],
      );
    }
    const response = child(root, 'commandresponse');
    if (!response) throw new RegistrarUnavailableError(`Namecheap ${command} answered OK without a CommandResponse`);
    return response;
  }
}
