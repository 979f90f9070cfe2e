import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { REJECT_REASON_MAX } from '@shared/schemas/offerings';
import { useId, useState, type FormEvent } from 'react';
import { addTranslations, useTranslation } from '../../../lib/i18n';
import adminTexts from '../../../locales/en.admin.json';

addTranslations({ admin: adminTexts });

/** Support's reason for refusing an offering: required, at most REJECT_REASON_MAX characters. */
export function RejectDialog({
  title,
  onConfirm,
  onClose,
}: {
  title: string;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const length = reason.trim().length;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (length === 0) {
      setProblem(t('admin.offerings.rejectDialog.required'));
      return;
    }
    if (length > REJECT_REASON_MAX) {
      setProblem(t('admin.offerings.rejectDialog.tooLong', { max: REJECT_REASON_MAX }));
      return;
    }
    onConfirm(reason.trim());
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={submit} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>{t('admin.offerings.rejectDialog.title', { title })}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            {t('admin.offerings.rejectDialog.body')}
          </DialogContentText>
          <TextField
            label={t('admin.offerings.rejectDialog.reason')}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setProblem(null);
            }}
            required
            multiline
            minRows={3}
            fullWidth
            autoFocus
            error={problem !== null}
            helperText={
              problem ??
              t('admin.offerings.rejectDialog.counter', { count: length, max: REJECT_REASON_MAX })
            }
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" color="error" variant="contained">
            {t('admin.offerings.rejectDialog.confirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
