import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';

/** A ready i18next instance (English only, no locale prefix; resources are bundled). */
export function createI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    // A copy: texts added later (addTranslations) are merged into the store, not into en.json's
    // module object.
    resources: { en: { translation: structuredClone(en) } },
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en'],
    defaultNS: 'translation',
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

export const i18n = createI18n();

/**
 * Adds translations under their top-level keys. The texts of a single page or dialog (the terms,
 * the home page, sign-up, settings, the permission prompt: `locales/en.<key>.json`) are not in the
 * shell's bundle; the modules that show them register them when they load, before they render
 * (`locales/en.test.ts` checks that every module using such a key imports its file).
 */
export function addTranslations(bundle: Record<string, unknown>): void {
  i18n.addResourceBundle('en', 'translation', bundle, true, false);
}
