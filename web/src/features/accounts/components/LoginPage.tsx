import Paper from '@mui/material/Paper';
import { useTranslation } from '../../../lib/i18n';
import { useLocation } from 'react-router';
import { LOGIN_PATH } from '../../../lib/auth';
import { usePageMeta } from '../../../lib/head';
import { useLoginFlow } from '../hooks/useLoginFlow';
import { LoginSteps } from './LoginSteps';
import { SessionPage } from './SessionPage';

function returnToOf(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'returnTo' in state) {
    const { returnTo } = state as { returnTo: unknown };
    if (typeof returnTo === 'string' && returnTo.startsWith('/')) return returnTo;
  }
  return LOGIN_PATH;
}

/** /session/login: the login steps on a page of their own (session layout). */
export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const flow = useLoginFlow({ returnTo: returnToOf(location.state) });
  usePageMeta({
    title: t('meta.titleTemplate', { page: t('meta.login.title'), app: t('app.name') }),
    noIndex: true,
  });
  return (
    <SessionPage>
      <Paper
        variant="outlined"
        sx={{ width: '100%', maxWidth: 500, p: { xs: 2.5, sm: 5 }, borderRadius: 4 }}
      >
        <LoginSteps flow={flow} level="h1" />
      </Paper>
    </SessionPage>
  );
}
