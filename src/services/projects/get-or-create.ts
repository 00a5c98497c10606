/**
 * Reads a row, or creates it when missing. Several processes sharing one database may start at the
 * same moment and both find it missing: the loser's create fails on the unique slug, and it reads
 * the winner's row instead.
 */
export async function getOrCreate<T>(get: () => Promise<T | null>, create: () => Promise<T>): Promise<T> {
  const existing = await get();
  if (existing) return existing;
  try {
    return await create();
  } catch (error) {
    const created = await get();
    if (created) return created;
    throw error;
  }
}
