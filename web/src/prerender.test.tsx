import { describe, expect, it } from 'vitest';
import { renderProfileDocument } from './prerender';

const TEMPLATE = `<!doctype html><html lang="en"><head>
<title>MintMarket · Numbered editions</title>
<meta
  name="description"
  content="Discover limited editions."
/>
<meta property="og:title" content="MintMarket" />
<meta property="og:site_name" content="MintMarket" />
<script type="module" crossorigin src="/assets/index-1.js"></script>
</head><body><div id="root"></div></body></html>`;

const profile = (summary: string) => ({
  id: '01JAAAAAAAAAAAAAAAAAAAAAAA',
  nick: 'marta',
  user_option: 'individual',
  name: 'Marta',
  surname: 'Ruiz',
  entity_name: null,
  entity_address: null,
  title: null,
  slogan: null,
  summary,
  profile_image: null,
  profile_thumb: null,
  header_image: null,
  video_url: null,
  social_media: {},
  followers_counter: 12,
  is_verified: false,
  is_seller: true,
  created_at: '2026-11-01T10:00:00.000Z',
});

describe("a public profile's page rendered on request", () => {
  it('carries the profile, its head and its data, and no user text can break out of them', async () => {
    const bio = 'Ceramics "and" <b>prints</b></script><script>alert(1)</script> $\' $&';
    const html = await renderProfileDocument(TEMPLATE, 'https://market.example/marta', {
      profile: profile(bio),
      items: { items: [], nextCursor: null },
    });
    // The page as a guest sees it, in #root.
    expect(html).toMatch(/<h1[^>]*>Marta Ruiz/);
    // Text stays text: markup escaped, and `$&` is not a replacement pattern.
    expect(html).toContain(
      'Ceramics &quot;and&quot; &lt;b&gt;prints&lt;/b&gt;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; $&#x27; $&amp;</p>',
    );
    // Its head: the profile's title and description instead of the site's, once each.
    expect(html).toContain('<title>Marta Ruiz (@marta) · MintMarket</title>');
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain('<meta property="og:url" content="https://market.example/marta">');
    expect(html).toContain('<meta property="og:site_name" content="MintMarket" />');
    expect(html).toMatch(/<meta name="description" content="Ceramics &quot;and&quot; &lt;b>/);
    // One script element of ours (the data), inert; the only other is the entry's.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('<script type="application/json" id="page-data">');
    expect(html).toContain('<style data-emotion');
  });
});
