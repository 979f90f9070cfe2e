import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  ADDRESS_LIMITS,
  addressInputSchema,
  COUNTRY_CODES,
  type Address,
  type AddressInput,
} from '@shared/schemas/addresses';
import { useId, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import type * as z from 'zod';
import { ApiError } from '../../../lib/api';
import { useErrorText } from '../../../lib/errors';
import { toasts } from '../../../lib/toast';
import { useSaveAddress } from '../hooks/useAddresses';
import addressesTexts from '../../../locales/en.addresses.json';

addTranslations({ addresses: addressesTexts });

type AddressFormInput = z.input<typeof addressInputSchema>;
type FieldName = Exclude<keyof AddressFormInput, 'default'>;

const FIELDS: readonly FieldName[] = [
  'country',
  'fullname',
  'line1',
  'line2',
  'postalcode',
  'city',
  'stateprovince',
  'instructions',
];

function defaults(address: Address | null): AddressFormInput {
  return {
    country: address?.country ?? '',
    fullname: address?.fullname ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    postalcode: address?.postalcode ?? '',
    city: address?.city ?? '',
    stateprovince: address?.stateprovince ?? '',
    instructions: address?.instructions ?? '',
    default: address?.default ?? false,
  };
}

/** The countries of the schema, named in the current language and sorted by name. */
function useCountries(language: string): { code: string; name: string }[] {
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([language], { type: 'region' });
    } catch {
      names = null;
    }
    return [...COUNTRY_CODES]
      .map((code) => ({ code, name: names?.of(code) ?? code }))
      .sort((a, b) => a.name.localeCompare(b.name, language));
  }, [language]);
}

interface AddressDialogProps {
  userId: string;
  /** The address to edit; null to add one. */
  address: Address | null;
  /** Whether this is the first address (it becomes the default anyway). */
  first: boolean;
  onClose: () => void;
}

/**
 * Add or edit an address (spec 001 §3, §5): the shared schema validates the form, and its messages
 * are error codes, so a field error reads the same whether the form or the API found it.
 */
export function AddressDialog({ userId, address, first, onClose }: AddressDialogProps) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const countries = useCountries(i18n.language);
  const titleId = useId();
  const save = useSaveAddress(userId);
  const [formError, setFormError] = useState<string | null>(null);
  const { control, register, handleSubmit, setError, formState } = useForm<
    AddressFormInput,
    unknown,
    AddressInput
  >({
    resolver: zodResolver(addressInputSchema),
    mode: 'onTouched',
    defaultValues: defaults(address),
  });
  const busy = formState.isSubmitting || save.isPending;

  const text = (code: string | undefined): string | undefined =>
    code
      ? i18n.exists(code)
        ? t(code as 'unexpected')
        : errorText(new ApiError({ code, status: 400 }))
      : undefined;

  const onValid = async (input: AddressInput) => {
    setFormError(null);
    try {
      await save.mutateAsync({ id: address?.id ?? null, input });
      toasts.show({
        severity: 'success',
        message: address ? t('addresses.updated') : t('addresses.added'),
      });
      onClose();
    } catch (error) {
      // Field errors of the API come as { 'address.city': 'forms.validation.required' }.
      let mapped = false;
      if (error instanceof ApiError && error.fields) {
        for (const [key, code] of Object.entries(error.fields)) {
          const name = key.replace(/^address\./, '') as FieldName;
          if (FIELDS.includes(name)) {
            setError(name, { type: 'server', message: code }, { shouldFocus: !mapped });
            mapped = true;
          }
        }
      }
      if (!mapped) setFormError(errorText(error));
    }
  };

  const field = (
    name: FieldName,
    label: string,
    options: { required?: boolean; max?: number; multiline?: boolean; autoComplete?: string } = {},
  ) => {
    const message = text(formState.errors[name]?.message);
    return (
      <TextField
        {...register(name)}
        label={label}
        required={options.required}
        error={message !== undefined}
        helperText={message ?? ' '}
        autoComplete={options.autoComplete}
        multiline={options.multiline}
        minRows={options.multiline ? 2 : undefined}
        disabled={busy}
        fullWidth
        slotProps={{ htmlInput: { maxLength: options.max } }}
      />
    );
  };

  const countryError = text(formState.errors.country?.message);
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullScreen={fullScreen}
      fullWidth
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { maxWidth: fullScreen ? undefined : 560 } } }}
    >
      <Box
        component="form"
        noValidate
        onSubmit={handleSubmit(onValid)}
        sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}
      >
        <DialogTitle id={titleId}>
          {address ? t('addresses.editTitle') : t('addresses.addTitle')}
        </DialogTitle>
        <DialogContent dividers>
          {formError ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {formError}
            </Alert>
          ) : null}
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
              columnGap: 2,
              rowGap: 0.5,
              '& > .wide': { gridColumn: '1 / -1' },
            }}
          >
            <Box className="wide">
              <TextField
                {...register('country')}
                select
                label={t('addresses.fields.country')}
                required
                error={countryError !== undefined}
                helperText={countryError ?? ' '}
                disabled={busy}
                fullWidth
                autoComplete="country"
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              >
                <option value="">{t('addresses.chooseCountry')}</option>
                {countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </TextField>
            </Box>
            <Box className="wide">
              {field('fullname', t('addresses.fields.fullname'), {
                required: true,
                max: ADDRESS_LIMITS.fullnameMax,
                autoComplete: 'name',
              })}
            </Box>
            <Box className="wide">
              {field('line1', t('addresses.fields.line1'), {
                required: true,
                max: ADDRESS_LIMITS.lineMax,
                autoComplete: 'address-line1',
              })}
            </Box>
            <Box className="wide">
              {field('line2', t('addresses.fields.line2'), {
                max: ADDRESS_LIMITS.lineMax,
                autoComplete: 'address-line2',
              })}
            </Box>
            {field('postalcode', t('addresses.fields.postalcode'), {
              required: true,
              max: ADDRESS_LIMITS.postalcodeMax,
              autoComplete: 'postal-code',
            })}
            {field('city', t('addresses.fields.city'), {
              required: true,
              max: ADDRESS_LIMITS.cityMax,
              autoComplete: 'address-level2',
            })}
            <Box className="wide">
              {field('stateprovince', t('addresses.fields.stateprovince'), {
                required: true,
                max: ADDRESS_LIMITS.stateprovinceMax,
                autoComplete: 'address-level1',
              })}
            </Box>
            <Box className="wide">
              {field('instructions', t('addresses.fields.instructions'), {
                max: ADDRESS_LIMITS.instructionsMax,
                multiline: true,
              })}
            </Box>
          </Box>
          {first || address?.default ? null : (
            <Controller
              control={control}
              name="default"
              render={({ field: { value, onChange, onBlur } }) => (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={value === true}
                      onChange={(event) => onChange(event.target.checked)}
                      onBlur={onBlur}
                      disabled={busy}
                    />
                  }
                  label={t('addresses.makeDefault')}
                />
              )}
            />
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} disabled={busy} color="inherit">
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {t('addresses.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
