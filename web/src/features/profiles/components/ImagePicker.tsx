import PhotoCameraRoundedIcon from '@mui/icons-material/PhotoCameraRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { IMAGE_TYPES } from '../schemas';

/** An object URL for a chosen file (revoked when it changes); null where unsupported (jsdom). */
export function usePreviewUrl(file: File | null): string | null {
  const url = useMemo(
    () => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

interface ImagePickerButtonProps {
  label: string;
  onPick: (file: File) => void;
  disabled?: boolean;
  describedBy?: string;
  variant?: 'overlay' | 'plain';
  icon?: ReactNode;
}

/** A button that opens the file chooser for png, jpeg or bmp images (labelled for the input). */
export function ImagePickerButton({
  label,
  onPick,
  disabled,
  describedBy,
  variant = 'plain',
  icon = <PhotoCameraRoundedIcon />,
}: ImagePickerButtonProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: 'inline-flex' }}>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        aria-label={label}
        aria-describedby={describedBy}
        disabled={disabled}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onPick(file);
        }}
      />
      <Button
        size="small"
        variant={variant === 'overlay' ? 'contained' : 'outlined'}
        color={variant === 'overlay' ? 'inherit' : 'primary'}
        startIcon={icon}
        disabled={disabled}
        aria-describedby={describedBy}
        onClick={() => input.current?.click()}
        sx={
          variant === 'overlay'
            ? {
                bgcolor: 'rgba(15, 23, 42, 0.72)',
                color: '#FFFFFF',
                backdropFilter: 'blur(4px)',
                '&:hover': { bgcolor: 'rgba(15, 23, 42, 0.86)' },
              }
            : { bgcolor: 'background.paper' }
        }
      >
        {label}
      </Button>
    </Box>
  );
}
