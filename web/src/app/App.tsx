import { hydrate } from '@tanstack/react-query';
import { AppRouter, createAppBrowserHistory } from '../lib/navigation';
import { readPageData } from '../lib/pageData';
import { mayHaveStoredSession } from '../lib/storedSession';
import { AppProviders, createQueryClient } from './providers';
import { AppRoutes } from './routes';

const history = createAppBrowserHistory();
const queryClient = createQueryClient();
// A page rendered on request brings the data it was rendered with (lib/pageData.ts): the first
// render on the client is then the server's, and a guest's calls are not made again. The CDN may
// have kept the page for a minute: for a signed-in visitor (the profile's owner after an edit)
// the data is refreshed once the page is live.
const pageData = readPageData();
if (pageData) {
  hydrate(queryClient, pageData);
  if (mayHaveStoredSession()) void queryClient.invalidateQueries({ refetchType: 'none' });
}

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <AppRouter history={history}>
        <AppRoutes />
      </AppRouter>
    </AppProviders>
  );
}
