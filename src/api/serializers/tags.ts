/** Sentry's issue tag shapes (TagKeySerializer, TagValueSerializer). */
import type { TagDistribution, TagValueCount } from "../../model";

const iso = (ms: number) => new Date(ms).toISOString();

export function serializeTagValue(key: string, value: TagValueCount) {
  return { key, name: value.value, value: value.value, count: value.count, lastSeen: iso(value.lastSeen), firstSeen: iso(value.firstSeen) };
}

export function serializeTagKey(tag: TagDistribution & { uniqueValues?: number }) {
  return {
    key: tag.key,
    name: tag.key,
    totalValues: tag.totalValues,
    ...(tag.uniqueValues === undefined ? {} : { uniqueValues: tag.uniqueValues }),
    topValues: tag.topValues.map((value) => serializeTagValue(tag.key, value)),
  };
}
