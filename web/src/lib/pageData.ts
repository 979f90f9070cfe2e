/**
 * The data a page rendered on request carries for the app (the public profile: its query cache
 * as the server rendered it). It travels in the HTML as a `<script type="application/json">`,
 * which the browser never runs (the CSP allows no inline script), and the app seeds its query
 * cache with it before hydrating, so the first render on the client is the server's and no call
 * is repeated.
 */
import type { DehydratedState } from '@tanstack/react-query';

export const PAGE_DATA_ID = 'page-data';

/**
 * `state` as the text of a JSON script element: `<`, `>`, `&` and the line separators escaped, so
 * no value (a bio saying `</script>`) can end the element or open markup.
 */
export function pageDataScript(state: DehydratedState): string {
  const json = JSON.stringify(state).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `<script type="application/json" id="${PAGE_DATA_ID}">${json}</script>`;
}

/** The page's data, or undefined for a page without (or with unreadable) data. */
export function readPageData(doc: Document = document): DehydratedState | undefined {
  const element = doc.getElementById(PAGE_DATA_ID);
  if (!element?.textContent) return undefined;
  try {
    const state = JSON.parse(element.textContent) as Partial<DehydratedState>;
    return Array.isArray(state.queries) ? (state as DehydratedState) : undefined;
  } catch {
    return undefined;
  }
}
