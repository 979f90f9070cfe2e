// The store moved to src/lib so that other features (account menu, settings) can open the modal
// without importing this feature.
export { editProfileModal, useEditProfileOpen } from '../../lib/editProfileStore';
