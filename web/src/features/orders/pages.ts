/**
 * The orders pages (the order, the activity, the token history) in one chunk: they share their
 * parts, hooks and texts.
 */
export { ActivityRoute } from './components/ActivityPage';
export { OrderRoute } from './components/OrderPage';
export { TokensHistoryRoute } from './components/TokensHistoryPage';
