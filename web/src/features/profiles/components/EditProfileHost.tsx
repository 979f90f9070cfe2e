import { lazy, Suspense, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../../lib/auth';
import { editProfileModal, useEditProfileOpen } from '../../../lib/editProfileStore';

/* The editor (its form and image pickers) loads when the modal first opens. */
const EditProfileModal = lazy(async () => ({
  default: (await import('./EditProfileModal')).EditProfileModal,
}));

export const FIRST_LOGIN_PARAM = 'loggedForFirstTime';

/**
 * Mounts the edit-profile modal: on demand (account menu, own profile), or as the first-login
 * variant while the URL carries `loggedForFirstTime=true` (spec 001 §2). Next closes it and
 * removes the parameter.
 */
export function EditProfileHost() {
  const { user } = useAuth();
  const open = useEditProfileOpen();
  const [params, setParams] = useSearchParams();
  const firstLogin = params.get(FIRST_LOGIN_PARAM) === 'true';
  const signedOut = user === null;
  // A modal asked for before logging out must not pop up after the next login.
  useEffect(() => {
    if (signedOut) editProfileModal.close();
  }, [signedOut]);
  if (!user) return null;
  if (!open && !firstLogin) return null;
  const close = () => {
    editProfileModal.close();
    if (firstLogin) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(FIRST_LOGIN_PARAM);
          return next;
        },
        { replace: true },
      );
    }
  };
  return (
    <Suspense fallback={null}>
      <EditProfileModal userId={user.id} firstLogin={firstLogin} onClose={close} />
    </Suspense>
  );
}
