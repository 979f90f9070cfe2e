import { useEffect } from 'react';
import { UI } from '@shared/constants/limits';

export const SOCIAL_IMAGE_PATH = '/social-400.png';

export interface PageMeta {
  /** Full document title. */
  title: string;
  /** Cut to 150 characters (spec 001 §9). */
  description?: string;
  /** Origin-relative or absolute URL of a 400×400 image; the site image by default. */
  image?: string;
  /** Ask search engines not to index the page (error pages). */
  noIndex?: boolean;
}

/** Cuts a description to the social preview limit, on a word boundary, with an ellipsis. */
export function truncateDescription(text: string, max: number = UI.socialDescriptionMax): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const slice = clean.slice(0, max - 1);
  const lastSpace = slice.lastIndexOf(' ');
  const cut = lastSpace > max * 0.6 ? slice.slice(0, lastSpace) : slice;
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`;
}

function absoluteUrl(url: string): string {
  return new URL(url, window.location.origin).toString();
}

function setMeta(attribute: 'name' | 'property', key: string, content: string | null): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (content === null) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.setAttribute('content', content);
}

/** Writes title, description, Open Graph and Twitter tags into document.head. */
export function applyPageMeta(meta: PageMeta): void {
  const description = meta.description ? truncateDescription(meta.description) : null;
  const image = absoluteUrl(meta.image ?? SOCIAL_IMAGE_PATH);
  const size = String(UI.socialImageSize);
  document.title = meta.title;
  setMeta('name', 'description', description);
  setMeta('name', 'robots', meta.noIndex ? 'noindex' : null);
  setMeta('property', 'og:type', 'website');
  setMeta('property', 'og:title', meta.title);
  setMeta('property', 'og:description', description);
  setMeta('property', 'og:url', window.location.href);
  setMeta('property', 'og:image', image);
  setMeta('property', 'og:image:width', size);
  setMeta('property', 'og:image:height', size);
  setMeta('name', 'twitter:card', 'summary');
  setMeta('name', 'twitter:title', meta.title);
  setMeta('name', 'twitter:description', description);
  setMeta('name', 'twitter:image', image);
}

/** Sets the page's head metadata while it is shown. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, image, noIndex } = meta;
  useEffect(() => {
    applyPageMeta({ title, description, image, noIndex });
  }, [title, description, image, noIndex]);
}
