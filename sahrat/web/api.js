// The REST calls of accounts and coins: JSON in and out, the session token
// as a Bearer header. Every answer comes back as {ok, status, data}; an error's
// data is the server's {"error", "code", …}, and a network failure has the
// code "offline", so screens word every outcome from its code alone.

import { savedToken } from "./net.js";

/** `method` `path` with an optional JSON `body`; never throws. */
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = savedToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    return { ok: false, status: 0, data: { code: "offline" } };
  }
  let data = {};
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch {
      data = {};
    }
  }
  if (!response.ok) {
    data = data && typeof data === "object" ? data : {};
    data.code ??= response.status === 401 ? "unauthorized" : "failed";
    const wait = Number(response.headers.get("Retry-After"));
    if (wait > 0) data.retry_after = wait;
  }
  return { ok: response.ok, status: response.status, data };
}
