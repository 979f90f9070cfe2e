import { AppRouter, createAppBrowserHistory } from '../lib/navigation';
import { AppProviders, createQueryClient } from './providers';
import { AppRoutes } from './routes';

const history = createAppBrowserHistory();
const queryClient = createQueryClient();

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <AppRouter history={history}>
        <AppRoutes />
      </AppRouter>
    </AppProviders>
  );
}
