/**
 * The WooCommerce simulator's product catalogue: what an order's lines leave out (their
 * categories). woocommerce-rest-api-docs (380bf8a) `_products.md`: "List all products" (`GET
 * /wc/v3/products`) takes `include` (ids) and `per_page`, and each product's `categories` is a list
 * of `{id, name, slug}` (docs/channels-sources.md W7b).
 */

export interface SimProduct {
  id: number;
  name: string;
  categories: { id: number; name: string; slug: string }[];
}

export function createProductCatalogue() {
  const products = new Map<number, SimProduct>();
  return {
    /** Stores a product as GET /products answers it. */
    add(product: SimProduct) {
      products.set(product.id, structuredClone(product));
    },
    /** GET /wc/v3/products: those `include` names (every one without it), `per_page` at most, and their count. */
    list(query: URLSearchParams): { body: SimProduct[]; headers: Record<string, string> } {
      const include = (query.get('include') ?? '').split(',').filter((id) => id !== '');
      const perPage = Number(query.get('per_page') ?? '10');
      const chosen = [...products.values()].filter(
        (product) => include.length === 0 || include.includes(String(product.id)),
      );
      return { body: chosen.slice(0, perPage), headers: { 'x-wp-total': String(chosen.length) } };
    },
  };
}
