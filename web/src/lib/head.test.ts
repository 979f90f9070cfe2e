import { describe, expect, it } from 'vitest';
import { applyPageMeta, setTitleUnreadCount, titleWithUnread, truncateDescription } from './head';

const meta = (selector: string) => document.head.querySelector(selector)?.getAttribute('content');

describe('head metadata', () => {
  it('cuts descriptions to 150 characters on a word boundary', () => {
    const long = 'word '.repeat(60);
    const cut = truncateDescription(long);
    expect(cut.length).toBeLessThanOrEqual(150);
    expect(cut.endsWith('…')).toBe(true);
    expect(truncateDescription('Short and sweet.')).toBe('Short and sweet.');
  });

  it('sets title, description, Open Graph and Twitter tags with a 400×400 image', () => {
    applyPageMeta({ title: 'Sellers · MintMarket', description: 'All the sellers.' });
    expect(document.title).toBe('Sellers · MintMarket');
    expect(meta('meta[name="description"]')).toBe('All the sellers.');
    expect(meta('meta[property="og:title"]')).toBe('Sellers · MintMarket');
    expect(meta('meta[property="og:description"]')).toBe('All the sellers.');
    expect(meta('meta[property="og:image"]')).toMatch(/\/social-400\.png$/);
    expect(meta('meta[property="og:image:width"]')).toBe('400');
    expect(meta('meta[property="og:image:height"]')).toBe('400');
    expect(meta('meta[name="twitter:card"]')).toBe('summary');
    expect(meta('meta[name="twitter:image"]')).toMatch(/\/social-400\.png$/);
    expect(meta('meta[name="robots"]')).toBeUndefined();
  });

  it('marks error pages noindex and removes the mark afterwards', () => {
    applyPageMeta({ title: 'Page not found', noIndex: true });
    expect(meta('meta[name="robots"]')).toBe('noindex');
    expect(meta('meta[name="description"]')).toBeUndefined();
    applyPageMeta({ title: 'Home' });
    expect(meta('meta[name="robots"]')).toBeUndefined();
  });

  it('puts the unread count before the page title, and the page keeps its own title', () => {
    expect(titleWithUnread('Sellers', 0)).toBe('Sellers');
    expect(titleWithUnread('Sellers', 3)).toBe('(3) Sellers');
    expect(titleWithUnread('Sellers', 99)).toBe('(99) Sellers');
    expect(titleWithUnread('Sellers', 100)).toBe('(99+) Sellers');
    applyPageMeta({ title: 'Sellers · MintMarket' });
    setTitleUnreadCount(3);
    expect(document.title).toBe('(3) Sellers · MintMarket');
    expect(meta('meta[property="og:title"]')).toBe('Sellers · MintMarket');
    // Another page: its title, still counted.
    applyPageMeta({ title: 'Wallet · MintMarket' });
    expect(document.title).toBe('(3) Wallet · MintMarket');
    setTitleUnreadCount(120);
    expect(document.title).toBe('(99+) Wallet · MintMarket');
    setTitleUnreadCount(0);
    expect(document.title).toBe('Wallet · MintMarket');
  });
});
