// Payloads of the extraction benchmarks (extract_bench.ts, extract_sdk_bench.ts): get_products
// responses of a given size and script.

const encoder = new TextEncoder();

/** One get_products product, `mark` in every seventh name. */
export function product(index: number, mark: string): Record<string, unknown> {
  return {
    product_id: `prod_${index}`,
    name: index % 7 === 0 ? `Sports Premium ${index} ${mark} CTV` : `Run of Site ${index}`,
    cpm: Math.round(index * 37) / 100,
    formats: ["video_30s", "display_300x250"],
    delivery_type: index % 2 === 0 ? "guaranteed" : "non_guaranteed",
    is_fixed_price: index % 3 === 0,
  };
}

/** A get_products-like response of exactly `bytes` UTF-8 bytes, `mark` in some product names. */
export function productsResponse(bytes: number, mark: string): string {
  const products: unknown[] = [];
  const build = (pad: string) => JSON.stringify({ status: "completed", products, pad });
  let size = encoder.encode(build("")).length;
  for (let index = 0; size < bytes - 1024; index++) {
    const item = product(index, mark);
    products.push(item);
    size += encoder.encode(JSON.stringify(item)).length + 1;
  }
  products.pop();
  const text = build("x".repeat(bytes - encoder.encode(build("")).length));
  if (encoder.encode(text).length !== bytes) throw new Error("Cannot size the bench payload");
  return text;
}

/** A small get_products response (about 400 bytes): two products, `mark` in two names. */
export function smallResponse(mark: string): string {
  return JSON.stringify({
    status: "completed",
    message: `Found 2 products ${mark}`,
    products: [product(0, mark), product(1, mark)],
  });
}
