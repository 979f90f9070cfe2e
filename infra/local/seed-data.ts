import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { ulid } from 'ulid';
import type { ProfileRecord } from '../../functions/profiles/index';

/**
 * The demo data of `npm start` and `npm run seed`: sellers of both kinds with follower counts
 * across the K/M/B range, some verified, each with a generated avatar.
 */

interface SeedSeller {
  nick: string;
  kind: 'individual' | 'company';
  name: string;
  surname: string | null;
  entityName: string | null;
  /** title for individuals, slogan for companies. */
  tagline: string;
  summary: string;
  followers: number;
  verified: boolean;
  createdAt: string;
  /** Avatar background, two tones of a gradient. */
  colors: [string, string];
}

const SELLERS: SeedSeller[] = [
  {
    nick: 'tidewater',
    kind: 'company',
    name: 'Olivia',
    surname: 'Marsh',
    entityName: 'Tidewater Tickets Ltd',
    tagline: 'Live music on the south coast, every weekend',
    summary:
      'Independent promoter of concerts and festivals on the English south coast. Every ticket is numbered and transferable until the doors open.',
    followers: 2_340_000,
    verified: true,
    createdAt: '2025-03-02T10:15:00.000Z',
    colors: ['#0f4c81', '#2a9d8f'],
  },
  {
    nick: 'nordlicht',
    kind: 'company',
    name: 'Jonas',
    surname: 'Keller',
    entityName: 'Nordlicht Audio GmbH',
    tagline: 'Hand-built tube amplifiers since 2009',
    summary:
      'A workshop of six in Hamburg building valve amplifiers and speakers by hand. Each unit carries a serial number and a lifetime service promise.',
    followers: 1_254_300,
    verified: true,
    createdAt: '2025-04-11T08:30:00.000Z',
    colors: ['#1d1d1f', '#c9a227'],
  },
  {
    nick: 'aikodraws',
    kind: 'individual',
    name: 'Aiko',
    surname: 'Tanaka',
    entityName: null,
    tagline: 'Illustrator',
    summary:
      'Ink and watercolour illustrations of cities at night. Signed giclée prints in numbered runs of 50.',
    followers: 215_000,
    verified: true,
    createdAt: '2025-05-20T19:45:00.000Z',
    colors: ['#6d28d9', '#ec4899'],
  },
  {
    nick: 'atelierronda',
    kind: 'company',
    name: 'Carmen',
    surname: 'Ortega',
    entityName: 'Atelier Ronda',
    tagline: 'Limited editions of Andalusian design',
    summary:
      'Tiles, textiles and lamps designed in Ronda and made by local artisans in small, numbered editions.',
    followers: 96_400,
    verified: true,
    createdAt: '2025-06-01T09:00:00.000Z',
    colors: ['#b45309', '#f59e0b'],
  },
  {
    nick: 'luciaceramics',
    kind: 'individual',
    name: 'Lucía',
    surname: 'Fernández',
    entityName: null,
    tagline: 'Ceramic artist',
    summary:
      'Wheel-thrown stoneware fired in a wood kiln. Every piece is unique and comes with its firing notes.',
    followers: 48_210,
    verified: true,
    createdAt: '2025-06-18T14:10:00.000Z',
    colors: ['#9a3412', '#fb923c'],
  },
  {
    nick: 'hannahbakes',
    kind: 'individual',
    name: 'Hannah',
    surname: 'Becker',
    entityName: null,
    tagline: 'Pastry chef & teacher',
    summary:
      'Weekend baking classes in Munich and online. Book a seat, bring an apron, leave with a box of croissants.',
    followers: 12_050,
    verified: false,
    createdAt: '2025-07-07T07:20:00.000Z',
    colors: ['#be185d', '#f9a8d4'],
  },
  {
    nick: 'greenhollow',
    kind: 'company',
    name: 'Tom',
    surname: 'Ashby',
    entityName: 'Green Hollow Farm',
    tagline: 'Seasonal produce boxes and farm stays',
    summary:
      'A family farm in Devon selling seasonal boxes, cheese-making days and weekend stays in the old barn.',
    followers: 8_900,
    verified: false,
    createdAt: '2025-08-15T11:05:00.000Z',
    colors: ['#166534', '#84cc16'],
  },
  {
    nick: 'kwameprints',
    kind: 'individual',
    name: 'Kwame',
    surname: 'Mensah',
    entityName: null,
    tagline: 'Screen printer',
    summary:
      'Bold two-colour screen prints inspired by Accra street signs. Runs of 30, hand-pulled.',
    followers: 3_870,
    verified: false,
    createdAt: '2025-09-03T16:40:00.000Z',
    colors: ['#b91c1c', '#facc15'],
  },
  {
    nick: 'marcorossi',
    kind: 'individual',
    name: 'Marco',
    surname: 'Rossi',
    entityName: null,
    tagline: 'Vintage watch restorer',
    summary:
      'Restored mechanical watches from the 1950s to the 1980s, each serviced and documented before sale.',
    followers: 760,
    verified: false,
    createdAt: '2025-10-12T12:00:00.000Z',
    colors: ['#334155', '#94a3b8'],
  },
  {
    nick: 'samoconnor',
    kind: 'individual',
    name: 'Sam',
    surname: "O'Connor",
    entityName: null,
    tagline: 'Surf instructor',
    summary: 'Two-hour surf lessons for beginners at Lahinch. Boards and wetsuits included.',
    followers: 42,
    verified: false,
    createdAt: '2025-11-01T09:30:00.000Z',
    colors: ['#0369a1', '#67e8f9'],
  },
];

/** A PRNG seeded from a string, so a seller keeps the same ULID across re-seeds. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedProfile {
  record: ProfileRecord;
  /** The seller's account: its e-mail and phone are reserved like a sign-up's (guard items). */
  account: { email: string; phone: string };
  avatar: { key: string; render: () => Promise<Buffer> };
}

function initials(seller: SeedSeller): string {
  const source =
    seller.kind === 'company' && seller.entityName !== null
      ? seller.entityName.split(/\s+/).filter((word) => !/^(ltd|gmbh|inc)$/i.test(word))
      : [seller.name, seller.surname ?? ''];
  return source
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word.charAt(0).toUpperCase())
    .join('');
}

/**
 * A square SVG of `size` px: a diagonal two-tone gradient with two soft circles, `content` (SVG
 * elements) on top. The demo avatars and the demo market's item images are drawn on it.
 */
export function gradientSquare(size: number, colors: [string, string], content: string): string {
  const [from, to] = colors;
  const at = (ratio: number) => Math.round(size * ratio);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
  </linearGradient></defs>
  <rect width="${size}" height="${size}" fill="url(#g)"/>
  <circle cx="${at(0.825)}" cy="${at(0.175)}" r="${at(0.3)}" fill="#fff" fill-opacity="0.08"/>
  <circle cx="${at(0.15)}" cy="${at(0.9)}" r="${at(0.375)}" fill="#000" fill-opacity="0.08"/>
  <g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" fill="#fff">${content}</g>
</svg>`;
}

/** A 400×400 WebP: the initials on a diagonal two-tone gradient with soft circles. */
export async function renderAvatar(text: string, colors: [string, string]): Promise<Buffer> {
  const svg = gradientSquare(
    400,
    colors,
    `<text x="200" y="212" font-size="150" font-weight="700" text-anchor="middle" dominant-baseline="middle">${text}</text>`,
  );
  return sharp(Buffer.from(svg)).webp({ quality: 88 }).toBuffer();
}

export function seedProfiles(): SeedProfile[] {
  return SELLERS.map((seller, index) => {
    const id = ulid(Date.parse(seller.createdAt), seededRandom(seller.nick));
    const key = `avatars/${id}/seed-400.webp`;
    const record: ProfileRecord = {
      id,
      nick: seller.nick,
      name: seller.name,
      surname: seller.surname,
      entity_name: seller.entityName,
      user_option: seller.kind,
      title: seller.kind === 'individual' ? seller.tagline : null,
      slogan: seller.kind === 'company' ? seller.tagline : null,
      summary: seller.summary,
      profile_image: key,
      header_image: null,
      followers_counter: seller.followers,
      is_verified: seller.verified,
      is_seller: true,
      created_at: seller.createdAt,
    };
    // example.com and Ofcom's drama range (+44 7700 900xxx): reserved, never anyone's.
    const account = {
      email: `${seller.nick}@sellers.example.com`,
      phone: `+447700900${String(index).padStart(3, '0')}`,
    };
    return {
      record,
      account,
      avatar: { key, render: () => renderAvatar(initials(seller), seller.colors) },
    };
  });
}
