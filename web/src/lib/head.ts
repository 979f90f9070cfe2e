import { createContext, useContext, useEffect } from 'react';
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

type MetaTag = readonly ['name' | 'property', string, string | null];

/** The head's meta tags for `meta` on the page at `url` (absolute), null where there is none. */
export function metaTags(meta: PageMeta, url: string): MetaTag[] {
  const description = meta.description ? truncateDescription(meta.description) : null;
  const image = new URL(meta.image ?? SOCIAL_IMAGE_PATH, url).toString();
  const size = String(UI.socialImageSize);
  return [
    ['name', 'description', description],
    ['name', 'robots', meta.noIndex ? 'noindex' : null],
    ['property', 'og:type', 'website'],
    ['property', 'og:title', meta.title],
    ['property', 'og:description', description],
    ['property', 'og:url', url],
    ['property', 'og:image', image],
    ['property', 'og:image:width', size],
    ['property', 'og:image:height', size],
    ['name', 'twitter:card', 'summary'],
    ['name', 'twitter:title', meta.title],
    ['name', 'twitter:description', description],
    ['name', 'twitter:image', image],
  ];
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

/** The page's own title (what applyPageMeta was last given), before the unread count. */
let pageTitle: string | null = null;
/** The signed-in user's unread notifications, shown before the title while above 0. */
let unreadCount = 0;

const COUNT_PREFIX = /^\(\d+\+?\) /;

/** 'Sellers' with 3 unread → '(3) Sellers'; above 99 → '(99+) Sellers'; 0 → 'Sellers'. */
export function titleWithUnread(title: string, unread: number): string {
  if (unread <= 0) return title;
  return `(${unread > 99 ? '99+' : unread}) ${title}`;
}

/**
 * The unread count of the tab's title (the notifications bell reports it; 0 when it goes). The one
 * place the prefix is written: a page's own title (usePageMeta) keeps working under it.
 */
export function setTitleUnreadCount(unread: number): void {
  unreadCount = Math.max(0, unread);
  pageTitle ??= document.title.replace(COUNT_PREFIX, '');
  document.title = titleWithUnread(pageTitle, unreadCount);
}

/** Writes title, description, Open Graph and Twitter tags into document.head. */
export function applyPageMeta(meta: PageMeta): void {
  pageTitle = meta.title;
  document.title = titleWithUnread(meta.title, unreadCount);
  for (const [attribute, key, content] of metaTags(meta, window.location.href)) {
    setMeta(attribute, key, content);
  }
}

/**
 * Where a page rendered on the server reports its metadata (its effects never run there): the
 * last page to render it wins, the page's own over its layout's.
 */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);

/** Sets the page's head metadata while it is shown. */
export function usePageMeta(meta: PageMeta): void {
  const { title, description, image, noIndex } = meta;
  useContext(PageMetaCollector)?.({ title, description, image, noIndex });
  useEffect(() => {
    applyPageMeta({ title, description, image, noIndex });
  }, [title, description, image, noIndex]);
}
