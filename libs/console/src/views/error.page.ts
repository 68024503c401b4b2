import { ConsoleActor } from '../access';
import { html } from '../html';
import { layout } from './layout';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Sign in again',
  402: 'A card is needed',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That conflicts with what exists',
  422: 'Refused',
  429: 'Too many attempts',
};

/** Only a console path of the referring page is kept, never another origin. */
function backPath(referer: string | string[] | undefined): string | undefined {
  if (typeof referer !== 'string') return undefined;
  try {
    const url = new URL(referer, 'http://console.invalid');
    return url.pathname.startsWith('/console') ? url.pathname + url.search : undefined;
  } catch {
    return undefined;
  }
}

export function errorPage(options: {
  status: number;
  message: string;
  details: string[];
  actor?: ConsoleActor;
  back?: string | string[];
}) {
  const title = TITLES[options.status] ?? (options.status >= 500 ? 'Something went wrong' : 'That did not work');
  const back = backPath(options.back);
  return layout({
    title,
    actor: options.actor,
    body: html`<section class="card error-card" role="alert">
      <h1>${title}</h1>
      <p class="lead">${options.message}</p>
      ${
        options.details.length
          ? html`<ul>
              ${options.details.map((d) => html`<li>${d}</li>`)}
            </ul>`
          : ''
      }
      <p class="muted">HTTP ${options.status}</p>
      <p><a class="button secondary" href="${back ?? '/console'}">${back ? 'Go back' : 'Back to the console'}</a></p>
    </section>`,
  });
}
