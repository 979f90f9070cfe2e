/**
 * The pages domain's public module: web pages rendered on request (the public profile), composed
 * from the profiles and items domains' reads and the web build's server render.
 */
export {
  FALLBACK_CACHE,
  NOT_FOUND_CACHE,
  profilePage,
  RENDERED_CACHE,
  type PageRenderer,
  type PagesDeps,
} from './profile-page';
export {
  BUNDLED_RENDER_DIR,
  loadRenderer,
  RENDER_DIR_ENV,
  RENDER_FILES,
  renderDir,
} from './renderer';
