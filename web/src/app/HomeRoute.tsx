import { HomePage } from '../features/home/components/HomePage';
import { TopSellers } from '../features/sellers/components/TopSellers';

/** The home page with the sellers feature's strip composed in. */
export function HomeRoute() {
  return <HomePage topSellers={<TopSellers />} />;
}
