import { describe, expect, it } from 'vitest';
import {
  allowedSocialLinks,
  imageUploadError,
  savedVideoUrl,
  socialSiteOf,
  updateProfileSchema,
  videoEmbedUrl,
} from '../../shared/schemas/profiles';
import { fieldsNotForType, profileChanges } from './profile-rules';

const NOW = new Date('2026-11-22T10:00:00.000Z');

describe('video link → embed URL (spec 001 §5)', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['http://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    [
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
    ],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
    ['  https://vimeo.com/76979871  ', 'https://player.vimeo.com/video/76979871'],
  ])('%s → %s', (link, embed) => {
    expect(videoEmbedUrl(link)).toBe(embed);
  });

  it.each([
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch',
    'https://www.youtube.com/channel/UC123',
    'https://evil.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.com/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ',
    'ftp://youtu.be/dQw4w9WgXcQ',
    'https://vimeo.com/user/abc',
    'https://player.vimeo.com/video/abc',
    'not a link',
  ])('%s is not a video link', (link) => {
    expect(videoEmbedUrl(link)).toBeNull();
  });

  it.each([
    [null, null],
    ['', null],
    ['   ', null],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ'],
    ['https://example.com/video', undefined],
  ])('saves %j as %j (undefined: refused)', (link, saved) => {
    expect(savedVideoUrl(link)).toBe(saved);
  });

  it('the body schema refuses a non-video link with forms.validation.link', () => {
    const result = updateProfileSchema.safeParse({ video_url: 'https://example.com/v' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('forms.validation.link');
    expect(updateProfileSchema.safeParse({ video_url: null }).success).toBe(true);
    expect(updateProfileSchema.safeParse({ video_url: '' }).success).toBe(true);
  });
});

describe('social links (spec 001 §5: LinkedIn, Twitter, Instagram, Facebook, Medium subdomain)', () => {
  it.each([
    ['https://www.linkedin.com/in/marta', 'linkedin'],
    ['https://es.linkedin.com/in/marta', 'linkedin'],
    ['https://twitter.com/marta', 'twitter'],
    ['https://x.com/marta', 'twitter'],
    ['https://www.instagram.com/marta/', 'instagram'],
    ['https://facebook.com/marta', 'facebook'],
    ['https://m.facebook.com/marta', 'facebook'],
    ['https://marta.medium.com/', 'medium'],
    ['https://medium.com/@marta', 'medium'],
    ['https://notlinkedin.com/in/marta', null],
    ['https://linkedin.com.evil.io/in/marta', null],
    ['https://tiktok.com/@marta', null],
    ['mailto:marta@medium.com', null],
    ['https://user:pw@twitter.com/marta', null],
    ['twitter.com/marta', null],
  ])('%s → %s', (link, site) => {
    expect(socialSiteOf(link)).toBe(site);
  });

  it('keeps only allowed links, under their site key, dropping the rest', () => {
    expect(
      allowedSocialLinks({
        linkedin: 'https://www.linkedin.com/in/marta',
        mine: 'https://marta.medium.com/',
        twitter: 'https://tiktok.com/@marta',
        insta: 'https://instagram.com/marta',
        junk: 'hello',
      }),
    ).toEqual({
      linkedin: 'https://www.linkedin.com/in/marta',
      medium: 'https://marta.medium.com/',
      instagram: 'https://instagram.com/marta',
    });
    expect(allowedSocialLinks({})).toEqual({});
  });
});

describe('fields by user type (spec 001 §2)', () => {
  it.each([
    ['individual', { name: 'A', surname: 'B', title: 'T', summary: 'S' }, {}],
    ['individual', { slogan: 'x' }, { slogan: 'forms.validation.user_type' }],
    [
      'individual',
      { entity_name: 'X', entity_address: 'Y' },
      { entity_name: 'forms.validation.user_type', entity_address: 'forms.validation.user_type' },
    ],
    ['company', { name: 'N', entity_name: 'N', slogan: 'S', entity_address: 'A' }, {}],
    [
      'company',
      { surname: 'B', title: 'T' },
      { surname: 'forms.validation.user_type', title: 'forms.validation.user_type' },
    ],
    ['company', { video_url: null, social_media: {} }, {}],
  ] as const)('%s sending %j → %j', (type, body, errors) => {
    expect(fieldsNotForType(type, body)).toEqual(errors);
  });

  it.each([
    ['title', 'x'.repeat(25), true],
    ['title', 'x'.repeat(26), false],
    ['slogan', 'x'.repeat(60), true],
    ['slogan', 'x'.repeat(61), false],
    ['summary', 'x'.repeat(500), true],
    ['summary', 'x'.repeat(501), false],
  ])('counter: %s of %i characters valid=%s', (field, value, valid) => {
    expect(updateProfileSchema.safeParse({ [field]: value }).success).toBe(valid);
  });

  it('saves an individual: empty texts clear, video as embed, social filtered', () => {
    const { changes, errors } = profileChanges(
      'individual',
      {
        name: 'Marta',
        title: '',
        summary: 'About me',
        video_url: 'https://youtu.be/dQw4w9WgXcQ',
        social_media: { a: 'https://x.com/marta', b: 'https://evil.com' },
      },
      NOW,
    );
    expect(errors).toEqual({});
    expect(changes).toEqual({
      name: 'Marta',
      title: null,
      summary: 'About me',
      video_url: 'https://www.youtube.com/embed/dQw4w9WgXcQ',
      social_media: { twitter: 'https://x.com/marta' },
      updated_at: NOW.toISOString(),
    });
  });

  it('keeps a company name and entity_name equal', () => {
    expect(profileChanges('company', { name: 'Nordlicht' }, NOW).changes).toMatchObject({
      name: 'Nordlicht',
      entity_name: 'Nordlicht',
    });
    expect(profileChanges('company', { entity_name: 'Acme', slogan: null }, NOW).changes).toEqual({
      name: 'Acme',
      entity_name: 'Acme',
      slogan: null,
      updated_at: NOW.toISOString(),
    });
  });

  it('reports a video link that is not one, and changes nothing for an empty body', () => {
    expect(profileChanges('individual', { video_url: 'https://a.b/c' }, NOW).errors).toEqual({
      video_url: 'forms.validation.link',
    });
    expect(profileChanges('individual', {}, NOW).changes).toEqual({});
  });
});

describe('image upload checks (spec 001 §5)', () => {
  it.each([
    ['avatar', 'image/png', 1, null],
    ['avatar', 'image/jpeg', 8_388_608, null],
    ['avatar', 'image/bmp', 8_388_609, 'forms.validation.image.size'],
    ['avatar', 'image/gif', 10, 'forms.validation.image.type'],
    ['avatar', 'image/svg+xml', 10, 'forms.validation.image.type'],
    ['avatar', 'image/png', 0, 'forms.validation.image.size'],
    ['avatar', 'image/png', 1.5, 'forms.validation.image.size'],
    ['cover', 'image/png', 2_097_152, null],
    ['cover', 'image/png', 2_097_153, 'forms.validation.image.size'],
  ] as const)('%s %s of %i bytes → %s', (kind, type, size, error) => {
    expect(imageUploadError(kind, type, size)).toBe(error);
  });
});
