import {
  allowedSocialLinks,
  PROFILE_FIELDS_BY_TYPE,
  savedVideoUrl,
  type UpdateProfileBody,
  type UserOption,
} from '../../shared/schemas/profiles';
import type { ProfileChanges } from './profiles.repo';

/**
 * The edit-profile rules (spec 001 §2, §5), pure: which fields a user type may send, and what is
 * saved for a body. The use case runs them authoritatively; the web runs the same shared helpers
 * (videoEmbedUrl, allowedSocialLinks) for instant feedback.
 */
export type FieldErrors = Record<string, string>;

/** Fields of the other user type that the body sets (each → `forms.validation.user_type`). */
export function fieldsNotForType(userOption: UserOption, body: UpdateProfileBody): FieldErrors {
  const allowed: readonly string[] = PROFILE_FIELDS_BY_TYPE[userOption];
  const errors: FieldErrors = {};
  for (const [field, value] of Object.entries(body)) {
    if (value !== undefined && !allowed.includes(field)) {
      errors[field] = 'forms.validation.user_type';
    }
  }
  return errors;
}

function text(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === null || value === '' ? null : value;
}

/**
 * What a valid body saves. Companies: `name` is the company name (spec 001 §2), so name and
 * entity_name are kept equal, as sign-up writes them. Throws nothing: call fieldsNotForType and
 * the schema first; a video link that is not one gives `{ video_url: 'forms.validation.link' }`.
 */
export function profileChanges(
  userOption: UserOption,
  body: UpdateProfileBody,
  now: Date,
): { changes: ProfileChanges; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const changes: ProfileChanges = {};
  if (userOption === 'company') {
    const companyName = body.entity_name ?? body.name;
    if (companyName !== undefined) {
      changes.name = companyName;
      changes.entity_name = companyName;
    }
    changes.slogan = text(body.slogan);
    changes.entity_address = text(body.entity_address);
  } else {
    changes.name = body.name;
    changes.surname = body.surname;
    changes.title = text(body.title);
  }
  changes.summary = text(body.summary);
  if (body.video_url !== undefined) {
    const video = savedVideoUrl(body.video_url);
    if (video === undefined) errors.video_url = 'forms.validation.link';
    else changes.video_url = video;
  }
  if (body.social_media !== undefined) changes.social_media = allowedSocialLinks(body.social_media);
  const defined = Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  ) as ProfileChanges;
  if (Object.keys(defined).length > 0) defined.updated_at = now.toISOString();
  return { changes: defined, errors };
}
