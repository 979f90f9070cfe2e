import AddPhotoAlternateRoundedIcon from '@mui/icons-material/AddPhotoAlternateRounded';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ITEM_IMAGE_TYPES } from '@shared/schemas/items';
import { CATEGORIES, MAX_CATEGORIES, type Category } from '@shared/schemas/offerings';
import { useId, useRef, type ReactNode } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import listingTexts from '../../../locales/en.listing.json';

addTranslations({ listing: listingTexts });

/** A titled part of the form. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={title}
      sx={{ p: { xs: 2, sm: 3 }, display: 'grid', gap: 2, minWidth: 0 }}
    >
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Categories as toggle chips: 1 to 3 of the market's (spec 000 §2). */
export function CategoryField({
  value,
  onChange,
  error,
}: {
  value: readonly Category[];
  onChange: (next: Category[]) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const full = value.length >= MAX_CATEGORIES;
  return (
    <FormControl error={Boolean(error)} component="fieldset" sx={{ minWidth: 0 }}>
      <FormLabel component="legend" id={labelId} required>
        {t('listing.form.categories.label')}
      </FormLabel>
      <Box
        role="group"
        aria-labelledby={labelId}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}
      >
        {CATEGORIES.map((category) => {
          const chosen = value.includes(category);
          return (
            <Chip
              key={category}
              label={t(`listing.categories.${category}`)}
              clickable
              color={chosen ? 'primary' : 'default'}
              variant={chosen ? 'filled' : 'outlined'}
              aria-pressed={chosen}
              disabled={!chosen && full}
              onClick={() =>
                onChange(chosen ? value.filter((item) => item !== category) : [...value, category])
              }
            />
          );
        })}
      </Box>
      <FormHelperText>
        {error ?? t('listing.form.categories.help', { max: MAX_CATEGORIES })}
      </FormHelperText>
    </FormControl>
  );
}

/** A nick as the invitation list keeps it: lower case, without a leading '@'. */
export function normaliseNick(text: string): string {
  return text.trim().replace(/^@+/, '').toLowerCase();
}

/** The nicks invited to a private offering, as chips (type a nick and press Enter). */
export function InviteField({
  value,
  onChange,
  onBlur,
  error,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      options={[]}
      value={value}
      onChange={(_event, next) => {
        const nicks = next.map(normaliseNick).filter((nick) => nick !== '');
        onChange([...new Set(nicks)]);
      }}
      onBlur={onBlur}
      renderValue={(nicks, getItemProps) =>
        nicks.map((nick, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} {...itemProps} size="small" label={`@${nick}`} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('listing.form.invited.label')}
          error={Boolean(error)}
          helperText={error ?? t('listing.form.invited.help')}
        />
      )}
    />
  );
}

/** The new collection's image: one file, checked by the form's schema, uploaded on submit. */
export function CollectionImageField({
  file,
  onChange,
  error,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {t('listing.form.collection.image')}
      </Typography>
      <input
        ref={input}
        type="file"
        hidden
        accept={ITEM_IMAGE_TYPES.join(',')}
        aria-label={t('listing.form.collection.pick')}
        onChange={(event) => {
          onChange(event.target.files?.[0] ?? null);
          event.target.value = '';
        }}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<AddPhotoAlternateRoundedIcon />}
          onClick={() => input.current?.click()}
        >
          {t('listing.form.collection.choose')}
        </Button>
        {file ? <Typography sx={{ overflowWrap: 'anywhere' }}>{file.name}</Typography> : null}
      </Box>
      <FormHelperText error={Boolean(error)} role={error ? 'alert' : undefined}>
        {error ?? t('listing.form.collection.imageHelp')}
      </FormHelperText>
    </Box>
  );
}
