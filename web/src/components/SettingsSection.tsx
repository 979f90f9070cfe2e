import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * A section of the settings pages: an outlined card labelled by its heading (`headingId`, which
 * the section's own lists may also point at), an optional line under the heading, an optional
 * action at the heading's end (it wraps below on a phone), then the content.
 */
export function SettingsSection({
  headingId,
  title,
  subtitle,
  action,
  children,
}: {
  headingId: string;
  title: string;
  subtitle?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          flexWrap: 'wrap',
          mb: 2,
        }}
      >
        <Box>
          <Typography id={headingId} variant="h6" component="h2">
            {title}
          </Typography>
          {subtitle === undefined ? null : (
            <Typography variant="body2" color="text.secondary">
              {subtitle}
            </Typography>
          )}
        </Box>
        {action}
      </Box>
      {children}
    </Paper>
  );
}
