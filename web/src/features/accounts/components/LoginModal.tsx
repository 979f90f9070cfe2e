import { lazy, Suspense } from 'react';
import { useAuth } from '../../../lib/auth';

/* The dialog, its steps and the login library load when the modal first opens. */
const LoginDialog = lazy(async () => ({ default: (await import('./LoginDialog')).LoginDialog }));

/** The login modal (spec 001 §2): max width 500, persistent while loading. */
export function LoginModal() {
  const { loginModal, closeLogin } = useAuth();
  if (!loginModal) return null;
  return (
    <Suspense fallback={null}>
      <LoginDialog returnTo={loginModal.returnTo} onClose={closeLogin} />
    </Suspense>
  );
}
