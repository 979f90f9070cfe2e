/*
 * The accounts pages' paths, in a module of their own: the top bar links to sign-up without
 * pulling the login steps (and their form library) into every page's entry.
 */
export const SIGNUP_PATH = '/session/signup';
export const FORGOT_PATH = '/session/forgot';
