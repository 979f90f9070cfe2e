import { describe, expect, it } from 'vitest';
import { chunksOf, frameHtml, pageHtml, withPreloads } from './build-web';
import { httpRoutes } from '../../functions/routes';
import { API_ORIGIN_ID, spaRoutingCode } from './stacks/web-stack';
import { RESERVED_SEGMENTS } from '../../shared/profilePaths';
import {
  PAGE_FRAMES,
  pageCallOf,
  PRERENDERED_PAGES,
  PROFILE_FRAME,
  SPA_SHELL,
  webFileOf,
} from './web-pages';

const CF_IMPORT = "import cf from 'cloudfront';\n";

/**
 * The CloudFront viewer-request function, run as CloudFront runs it (`handler(event)`), with its
 * `cloudfront` module (the origin selection) recorded: the URI it asks for, at which origin.
 */
function cloudFront(uri: string): { uri: string; origin: string | undefined } {
  const code = spaRoutingCode();
  expect(code.startsWith(CF_IMPORT)).toBe(true);
  let origin: string | undefined;
  const cf = {
    selectRequestOriginById: (id: string) => {
      origin = id;
    },
  };
  const handler = new Function('cf', `${code.slice(CF_IMPORT.length)}; return handler;`)(
    cf,
  ) as (event: { request: { uri: string } }) => { uri: string };
  return { uri: handler({ request: { uri } }).uri, origin };
}

/** The file of the web bucket the function answers `uri` with (the default origin). */
function cloudFrontUri(uri: string): string {
  const answer = cloudFront(uri);
  return answer.origin === undefined ? answer.uri : `${answer.origin}:${answer.uri}`;
}

describe('which file answers a path (twin gateway and CloudFront alike)', () => {
  it.each([
    ['/', 'pages/home.html'],
    ['/sellers', 'pages/sellers.html'],
    ['/sellers/', 'pages/sellers.html'],
    ['/tidewater', 'pages/profile.html'],
    ['/tidewater/', 'pages/profile.html'],
    ['/ana2', 'pages/profile.html'],
    // Not a nick: too short, upper case, reserved, or a nested path.
    ['/ab', SPA_SHELL],
    ['/Tidewater', SPA_SHELL],
    ['/account', SPA_SHELL],
    ['/market', SPA_SHELL],
    ['/constructor', 'pages/profile.html'],
    ['/tidewater/items', SPA_SHELL],
    ['/account/wallet/mytokens', SPA_SHELL],
    ['/market/product/01H', SPA_SHELL],
    ['/sellers/extra', SPA_SHELL],
  ])('%s → %s', (pathname, file) => {
    expect(webFileOf(pathname)).toBe(file);
    const call = pageCallOf(pathname);
    // A profile is rendered on request by the page call, on the API origin (the frame is its
    // answer when it cannot render); every other path gets its file from the web bucket.
    if (file === PROFILE_FRAME.file) {
      expect(call).toBe(`/api/pages/profile/${pathname.split('/')[1]}`);
      expect(cloudFrontUri(pathname)).toBe(`${API_ORIGIN_ID}:${call}`);
    } else {
      expect(call).toBeUndefined();
      expect(cloudFrontUri(pathname)).toBe(`/${file}`);
    }
  });

  it('the page call is a declared HTML route, answered for every profile path', () => {
    const route = httpRoutes.find((entry) => entry.path === '/api/pages/profile/{nick}');
    expect(route?.html).toBe(true);
    expect(route?.method).toBe('GET');
    expect(route?.auth).toBe('public');
  });

  it('CloudFront serves files as they are', () => {
    expect(cloudFrontUri('/assets/index-abc.js')).toBe('/assets/index-abc.js');
    expect(cloudFrontUri('/pages/home.html')).toBe('/pages/home.html');
    expect(cloudFrontUri('/favicon.svg')).toBe('/favicon.svg');
  });

  it('every prerendered page and frame lives under pages/', () => {
    for (const page of [...Object.values(PRERENDERED_PAGES), ...PAGE_FRAMES])
      expect(page.file).toMatch(/^pages\/.+\.html$/);
  });

  it('a frame is rendered at a path its pattern answers', () => {
    for (const frame of PAGE_FRAMES) expect(webFileOf(frame.sample)).toBe(frame.file);
  });

  it("every reserved first segment (the app's own routes) is not answered by the profile frame", () => {
    for (const word of RESERVED_SEGMENTS) expect(cloudFront(`/${word}`).origin).toBeUndefined();
  });
});

describe('the HTML of the build', () => {
  const template =
    '<html><head><script type="module" src="/assets/index-1.js"></script>' +
    '<link rel="modulepreload" href="/assets/start-1.js"></head>' +
    '<body><div id="root"></div></body></html>';

  it("carries its markup and styles, and only the entry's preloads (it paints before the app loads)", () => {
    const html = pageHtml(template, {
      html: '<main>Hello</main>',
      styles: '<style data-emotion="css a">.a{}</style>',
    });
    expect(html).toContain('<div id="root"><main>Hello</main></div>');
    expect(html.match(/modulepreload/g)).toEqual(['modulepreload']);
    expect(html).toContain('href="/assets/start-1.js"');
    expect(html).toContain('<script type="module" src="/assets/index-1.js"></script>');
    expect(html.indexOf('data-emotion')).toBeLessThan(html.indexOf('</head>'));
  });

  it('a frame is the same page with #root marked for the app to render over it', () => {
    const html = frameHtml(template, { html: '<main>Frame</main>', styles: '' });
    expect(html).toContain('<div id="root" data-frame><main>Frame</main></div>');
    expect(html.match(/modulepreload/g)).toEqual(['modulepreload']);
  });

  it('the shell preloads the chunks it lacks, once each', () => {
    const html = withPreloads(template, ['assets/boot-1.js', 'assets/start-1.js']);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/boot-1.js">');
    expect(html.match(/start-1\.js/g)).toHaveLength(1);
  });

  it("preloads a page's chunk and its static imports, once each", () => {
    const manifest = {
      'src/Home.tsx': { file: 'assets/Home.js', imports: ['_Card.js', '_react.js'] },
      '_Card.js': { file: 'assets/Card.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/react.js' },
    };
    expect(chunksOf(manifest, 'src/Home.tsx')).toEqual([
      'assets/Home.js',
      'assets/Card.js',
      'assets/react.js',
    ]);
    expect(() => chunksOf(manifest, 'src/Missing.tsx')).toThrow(/not in the web build/);
  });
});
