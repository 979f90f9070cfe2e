/**
 * Stands in for Material UI's `createThemeWithVars` in the production build (web/vite.config.ts
 * `themeWithoutCssVariables`): the app's theme uses no CSS theme variables, and this keeps that
 * half of `createTheme` out of every page. A theme that asks for them (`cssVariables`,
 * `colorSchemes`) fails at once, naming the reason.
 */
export default function createThemeWithVars(): never {
  throw new Error(
    'CSS theme variables are not in this build: see themeWithoutCssVariables in web/vite.config.ts',
  );
}
