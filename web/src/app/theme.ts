import { alpha, createTheme } from '@mui/material/styles';
import { UI } from '@shared/constants/limits';

const brand = {
  indigo: '#4F46E5',
  indigoDark: '#3730A3',
  indigoLight: '#818CF8',
  violet: '#7C3AED',
  teal: '#0F766E',
  ink: '#0F172A',
  slate: '#475569',
  line: '#E4E7F0',
  canvas: '#F7F8FC',
} as const;

/** Breakpoints of the spec (001 §2): 768, 960 and 1265 px. */
export const BREAKPOINTS = {
  xs: 0,
  sm: UI.breakpoints.sm,
  md: UI.breakpoints.md,
  lg: UI.breakpoints.lg,
  xl: 1920,
};

export const theme = createTheme({
  breakpoints: { values: BREAKPOINTS },
  palette: {
    mode: 'light',
    primary: {
      main: brand.indigo,
      dark: brand.indigoDark,
      light: brand.indigoLight,
      contrastText: '#FFFFFF',
    },
    secondary: { main: brand.teal, contrastText: '#FFFFFF' },
    text: { primary: brand.ink, secondary: brand.slate },
    background: { default: brand.canvas, paper: '#FFFFFF' },
    divider: brand.line,
  },
  shape: { borderRadius: 12 },
  typography: {
    fontFamily: '"Roboto Variable", "Helvetica Neue", Arial, sans-serif',
    h1: { fontWeight: 700, letterSpacing: '-0.025em', lineHeight: 1.1 },
    h2: { fontWeight: 700, letterSpacing: '-0.02em', lineHeight: 1.15 },
    h3: { fontWeight: 700, letterSpacing: '-0.015em' },
    h4: { fontWeight: 700, letterSpacing: '-0.01em' },
    h5: { fontWeight: 700 },
    h6: { fontWeight: 600 },
    subtitle1: { fontWeight: 500 },
    button: { fontWeight: 600, textTransform: 'none', letterSpacing: 0 },
    overline: { fontWeight: 700, letterSpacing: '0.12em' },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: {
        html: { scrollBehavior: 'smooth' },
        body: { WebkitFontSmoothing: 'antialiased', MozOsxFontSmoothing: 'grayscale' },
        // A visible focus ring for keyboard users on every interactive element.
        ':focus-visible': { outline: `3px solid ${alpha(brand.indigo, 0.55)}`, outlineOffset: 2 },
        '@media (prefers-reduced-motion: reduce)': {
          html: { scrollBehavior: 'auto' },
          '*, *::before, *::after': {
            transitionDuration: '0.01ms !important',
            animationDuration: '0.01ms !important',
          },
        },
      },
    },
    MuiButtonBase: {
      styleOverrides: {
        // MUI removes the outline and pulses a ripple instead; keep a clear ring for keyboards.
        root: {
          '&.Mui-focusVisible': {
            outline: `3px solid ${alpha(brand.indigo, 0.55)}`,
            outlineOffset: 2,
          },
        },
      },
    },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: { borderRadius: 10, paddingInline: 18 },
        sizeLarge: { paddingBlock: 11, paddingInline: 24, fontSize: '1rem' },
      },
    },
    MuiIconButton: {
      styleOverrides: { root: { borderRadius: 10 } },
    },
    MuiCard: {
      defaultProps: { elevation: 0 },
      styleOverrides: {
        root: { borderRadius: 16, border: `1px solid ${brand.line}` },
      },
    },
    MuiPaper: {
      styleOverrides: { rounded: { borderRadius: 16 } },
    },
    MuiAppBar: {
      defaultProps: { elevation: 0, color: 'inherit' },
    },
    MuiChip: {
      styleOverrides: { root: { fontWeight: 600 } },
    },
    MuiListItemButton: {
      styleOverrides: {
        root: {
          borderRadius: 10,
          '&.Mui-selected': {
            backgroundColor: alpha(brand.indigo, 0.1),
            color: brand.indigoDark,
            '& .MuiListItemIcon-root': { color: brand.indigo },
          },
          '&.Mui-selected:hover': { backgroundColor: alpha(brand.indigo, 0.14) },
        },
      },
    },
    MuiAlert: {
      styleOverrides: { root: { borderRadius: 12 } },
    },
    MuiSkeleton: {
      defaultProps: { animation: 'wave' },
    },
  },
});
