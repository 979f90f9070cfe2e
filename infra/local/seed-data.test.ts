import { describe, expect, it } from 'vitest';
import { emailSchema, phoneSchema } from '../../shared/schemas/accounts';
import { nickSchema } from '../../shared/schemas/profiles';
import { seedProfiles } from './seed-data';

describe('demo seed data', () => {
  const profiles = seedProfiles().map((profile) => profile.record);

  it('follows the spec rules for nicks and is unique', () => {
    for (const profile of profiles) expect(nickSchema.safeParse(profile.nick).success).toBe(true);
    expect(new Set(profiles.map((profile) => profile.nick)).size).toBe(profiles.length);
    expect(new Set(profiles.map((profile) => profile.id)).size).toBe(profiles.length);
  });

  it('gives each seller an account e-mail and phone that sign-up would accept, all distinct', () => {
    const accounts = seedProfiles().map((profile) => profile.account);
    for (const { email, phone } of accounts) {
      expect(emailSchema.parse(email)).toBe(email);
      expect(phoneSchema.parse(phone)).toBe(phone);
    }
    expect(new Set(accounts.map((account) => account.email)).size).toBe(accounts.length);
    expect(new Set(accounts.map((account) => account.phone)).size).toBe(accounts.length);
  });

  it('has stable ids, so re-seeding overwrites instead of duplicating', () => {
    expect(seedProfiles().map((profile) => profile.record.id)).toEqual(
      profiles.map((profile) => profile.id),
    );
  });

  it('mixes individuals and companies, verified or not, with a spread of follower counts', () => {
    expect(new Set(profiles.map((profile) => profile.user_option))).toEqual(
      new Set(['individual', 'company']),
    );
    expect(profiles.some((profile) => profile.is_verified)).toBe(true);
    expect(profiles.some((profile) => !profile.is_verified)).toBe(true);
    expect(profiles.every((profile) => profile.is_seller)).toBe(true);
    const counts = profiles.map((profile) => profile.followers_counter);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(1_000_000);
    expect(Math.min(...counts)).toBeLessThan(1000);
  });
});
