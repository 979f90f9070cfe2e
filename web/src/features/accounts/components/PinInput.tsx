import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import {
  useEffect,
  useRef,
  type ChangeEvent,
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { PIN_LENGTH } from '../schemas';
import loginTexts from '../../../locales/en.login.json';

addTranslations({ login: loginTexts });

interface PinInputProps {
  value: string;
  onChange: (value: string) => void;
  /** Called once every digit is filled. */
  onComplete?: (value: string) => void;
  /** Accessible name of the group ("E-mail code"). */
  label: string;
  disabled?: boolean;
  error?: boolean;
  autoFocus?: boolean;
  /** id of the text describing the field (the error or the hint). */
  describedBy?: string;
}

/**
 * A 4-digit code in one box per digit: typing moves on, Backspace moves back, the arrows move
 * between boxes and pasting a code (or the browser's one-time-code autofill) fills them all.
 */
export function PinInput({
  value,
  onChange,
  onComplete,
  label,
  disabled = false,
  error = false,
  autoFocus = false,
  describedBy,
}: PinInputProps) {
  const { t } = useTranslation();
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  // Back to the first box when the code is cleared (a refused pin) and the boxes are enabled again.
  const empty = value === '';
  useEffect(() => {
    if (autoFocus && empty && !disabled) refs.current[0]?.focus();
  }, [autoFocus, empty, disabled]);
  const digits = Array.from({ length: PIN_LENGTH }, (_, index) => value[index] ?? '');

  const focus = (index: number) => {
    const input = refs.current[Math.max(0, Math.min(PIN_LENGTH - 1, index))];
    input?.focus();
    input?.select();
  };

  const set = (next: string, focusAt: number) => {
    const clean = next.replace(/\D/g, '').slice(0, PIN_LENGTH);
    onChange(clean);
    focus(focusAt);
    if (clean.length === PIN_LENGTH) onComplete?.(clean);
  };

  const typed = (index: number, raw: string) => {
    const entered = raw.replace(/\D/g, '');
    if (entered === '') return;
    // Several digits at once (autofill, a fast typist on a filled box): fill from here.
    const before = digits.slice(0, index).join('');
    const merged = (before + entered + digits.slice(index + entered.length).join('')).slice(
      0,
      PIN_LENGTH,
    );
    set(merged, index + entered.length);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      if (digits[index]) {
        const next = digits.slice();
        next[index] = '';
        onChange(next.join('').slice(0, index) + next.slice(index + 1).join(''));
      } else if (index > 0) {
        onChange(digits.slice(0, index - 1).join('') + digits.slice(index).join(''));
        focus(index - 1);
      }
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focus(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focus(index + 1);
    }
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = (
      event.clipboardData.getData('text/plain') || event.clipboardData.getData('text')
    ).replace(/\D/g, '');
    if (pasted === '') return;
    if (pasted.length >= PIN_LENGTH) set(pasted, PIN_LENGTH - 1);
    else typed(index, pasted);
  };

  return (
    <Box
      role="group"
      aria-label={label}
      aria-describedby={describedBy}
      sx={{ display: 'flex', justifyContent: 'center', gap: { xs: 1, sm: 1.5 } }}
    >
      {digits.map((digit, index) => (
        <Box
          key={index}
          component="input"
          ref={(element: HTMLInputElement | null) => {
            refs.current[index] = element;
          }}
          value={digit}
          disabled={disabled}
          autoFocus={autoFocus && index === 0}
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={t('login.pin.digit', { index: index + 1, total: PIN_LENGTH })}
          aria-invalid={error || undefined}
          onChange={(event: ChangeEvent<HTMLInputElement>) =>
            typed(index, event.target.value.replace(digit, '') || event.target.value)
          }
          onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => onKeyDown(index, event)}
          onPaste={(event: ClipboardEvent<HTMLInputElement>) => onPaste(index, event)}
          onFocus={(event: FocusEvent<HTMLInputElement>) => event.target.select()}
          sx={{
            width: { xs: 52, sm: 57 },
            height: { xs: 60, sm: 64 },
            p: 0,
            textAlign: 'center',
            fontSize: 28,
            fontWeight: 600,
            fontFamily: 'inherit',
            color: 'text.primary',
            bgcolor: disabled ? 'action.hover' : 'background.paper',
            border: 2,
            borderColor: error ? 'error.main' : digit ? 'primary.main' : 'divider',
            borderRadius: 2,
            outline: 'none',
            caretColor: 'transparent',
            transition: 'border-color 120ms, box-shadow 120ms',
            '&:focus': {
              borderColor: error ? 'error.main' : 'primary.main',
              boxShadow: (theme) =>
                `0 0 0 4px ${alpha(error ? theme.palette.error.main : theme.palette.primary.main, 0.16)}`,
            },
          }}
        />
      ))}
    </Box>
  );
}
