import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** The account's stores and warehouses and the courier catalogue, which filters and forms choose from. */
export function useReferenceData() {
  const carriers = useQuery({
    queryKey: ['carriers'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/carriers')),
    staleTime: 300_000,
  });
  const warehouses = useQuery({
    queryKey: ['warehouses'],
    queryFn: () => unwrap(api.GET('/custom/api/v1/warehouses')),
  });
  const stores = useQuery({ queryKey: ['stores'], queryFn: () => unwrap(api.GET('/custom/api/v1/client-stores')) });
  return {
    carriers: carriers.data?.data ?? [],
    warehouses: warehouses.data?.data ?? [],
    stores: stores.data?.data ?? [],
    loaded: warehouses.isSuccess && stores.isSuccess,
  };
}
