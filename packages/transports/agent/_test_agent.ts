// Requests the agent tests send, valid for the typed overload of AdcpAgent.call (the pinned
// schemas' get_products and create_media_buy requests).

/** A get_products request. */
export const BRIEF = { buying_mode: "brief", brief: "CTV" } as const;

/** A create_media_buy request. */
export const MEDIA_BUY = {
  account: { account_id: "acct_1" },
  brand: { domain: "brand.example" },
  start_time: "2027-01-01T00:00:00Z",
  end_time: "2027-02-01T00:00:00Z",
} as const;
