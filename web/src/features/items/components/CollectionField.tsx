import AddRoundedIcon from '@mui/icons-material/AddRounded';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createCollectionBodySchema } from '@shared/schemas/items';
import { useCallback, useState } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import { useErrorText } from '../../../lib/errors';
import { createCollection, fetchCollections, itemKeys } from '../api/items';
import { ImagePicker } from './ImagePicker';
import itemsTexts from '../../../locales/en.items.json';

addTranslations({ items: itemsTexts });

interface CollectionFieldProps {
  userId: string;
  value: string;
  onChange: (id: string) => void;
}

/** The item's collection: one of the user's, none, or a new one made in a small dialog. */
export function CollectionField({ userId, value, onChange }: CollectionFieldProps) {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  const query = useQuery({
    queryKey: itemKeys.collections(userId),
    queryFn: ({ signal }) => fetchCollections(userId, signal),
  });
  const collections = query.data?.items ?? [];
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
      <TextField
        select
        label={t('items.form.collection.label')}
        value={collections.some((item) => item.id === value) ? value : ''}
        onChange={(event) => onChange(event.target.value)}
        sx={{ flex: '1 1 220px' }}
        helperText={query.isError ? t('items.form.collection.loadError') : undefined}
        error={query.isError}
      >
        <MenuItem value="">{t('items.form.collection.none')}</MenuItem>
        {collections.map((collection) => (
          <MenuItem key={collection.id} value={collection.id}>
            {collection.title}
          </MenuItem>
        ))}
      </TextField>
      <Button startIcon={<AddRoundedIcon />} onClick={() => setCreating(true)} sx={{ mt: 1 }}>
        {t('items.form.collection.new')}
      </Button>
      {creating ? (
        <NewCollectionDialog
          userId={userId}
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            onChange(id);
          }}
        />
      ) : null}
    </Box>
  );
}

function NewCollectionDialog({
  userId,
  onClose,
  onCreated,
}: {
  userId: string;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [symbol, setSymbol] = useState('');
  const [title, setTitle] = useState('');
  const [image, setImage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const onImages = useCallback((ids: string[]) => setImage(ids[0] ?? null), []);
  const mutation = useMutation({
    mutationFn: (body: { symbol: string; title: string; image: string }) =>
      createCollection(userId, body),
    onSuccess: async (collection) => {
      await queryClient.invalidateQueries({ queryKey: itemKeys.collections(userId) });
      onCreated(collection.id);
    },
  });
  const submit = () => {
    const parsed = createCollectionBodySchema.safeParse({
      collection: { symbol, title, image: image ?? '' },
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[1] ?? '');
        next[field] ??= issue.message;
      }
      if (!image) next.image = 'forms.validation.required';
      setIssues(next);
      return;
    }
    setIssues({});
    mutation.mutate(parsed.data.collection);
  };
  const text = (field: string) => {
    const code = issues[field];
    return code ? t(code as 'forms.validation.required') : undefined;
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="new-collection-title" fullWidth maxWidth="sm">
      <DialogTitle id="new-collection-title">{t('items.form.collection.dialogTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
        {mutation.isError ? <Alert severity="error">{errorText(mutation.error)}</Alert> : null}
        <TextField
          label={t('items.form.collection.title')}
          value={title}
          required
          onChange={(event) => setTitle(event.target.value)}
          error={Boolean(issues.title)}
          helperText={text('title')}
        />
        <TextField
          label={t('items.form.collection.symbol')}
          value={symbol}
          required
          onChange={(event) => setSymbol(event.target.value)}
          error={Boolean(issues.symbol)}
          helperText={text('symbol') ?? t('items.form.symbolHelp')}
        />
        <ImagePicker
          userId={userId}
          max={1}
          label={t('items.form.collection.image')}
          onChange={onImages}
          onBusyChange={setBusy}
          error={text('image')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy || mutation.isPending}>
          {t('items.form.collection.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
