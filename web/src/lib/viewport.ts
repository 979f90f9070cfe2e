import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

export interface Viewport {
  /** Below 768 px: the phone layout (bottom bar for logged-in users). */
  phone: boolean;
  /** From 1265 px: the permanent side bar instead of the drawer. */
  wide: boolean;
}

/**
 * The layout's breakpoints (spec 001 §2: 768, 960, 1265 px). Read synchronously on the first
 * render (`noSsr`), so the bars never render for the wrong width and then move.
 */
export function useViewport(): Viewport {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const wide = useMediaQuery(theme.breakpoints.up('lg'), { noSsr: true });
  return { phone, wide };
}
