import { RouterProvider } from 'react-router/dom';
import { createBrowserRouter } from 'react-router';
import { AppProviders, createQueryClient } from './providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
