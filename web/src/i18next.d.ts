import 'i18next';
import type en from './locales/en.json';
import type home from './locales/en.home.json';
import type legal from './locales/en.legal.json';
import type permission from './locales/en.permission.json';
import type settings from './locales/en.settings.json';
import type signup from './locales/en.signup.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // The shell's texts and those its pages and dialogs add when they load (lib/i18n.ts).
    resources: {
      translation: typeof en & {
        home: typeof home;
        legal: typeof legal;
        permission: typeof permission;
        settings: typeof settings;
        signup: typeof signup;
      };
    };
  }
}
