import { lazyOverlay } from '../lib/lazyOverlay';
import { usePermissionPrompt, type PermissionPrompt } from '../lib/permission';

/* The dialog (and MUI's Dialog) load on demand, preloaded once the first page is idle. */
const PermissionDialog = lazyOverlay<{ prompt: PermissionPrompt }>(
  async () => (await import('./PermissionDialog')).PermissionDialog,
);

/** Shows the permission guard's modal (verify or onboard) while one is open. */
export function PermissionPromptHost() {
  const prompt = usePermissionPrompt();
  if (!prompt) return null;
  return <PermissionDialog prompt={prompt} />;
}
