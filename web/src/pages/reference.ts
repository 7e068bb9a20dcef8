import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { useCan } from '../permissions';

/** The account's stores and warehouses and the courier catalogue, which filters and forms choose from. */
export function useReferenceData() {
  const carriers = useQuery({
    queryKey: ['carriers'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/carriers')),
    staleTime: 300_000,
  });
  // Stores and warehouses are settings: a member without settings:read goes without their names
  // rather than asking for what the API refuses.
  const readable = useCan()('settings:read');
  const warehouses = useQuery({
    queryKey: ['warehouses'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/warehouses')),
    enabled: readable,
  });
  const stores = useQuery({
    queryKey: ['stores'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/client-stores')),
    enabled: readable,
  });
  return {
    carriers: carriers.data?.data ?? [],
    warehouses: warehouses.data?.data ?? [],
    stores: stores.data?.data ?? [],
    loaded: !readable || (warehouses.isSuccess && stores.isSuccess),
  };
}
