/** 1 MiB for any request but a batch of votes. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * 4 MiB for POST /api/save: fifty votes with every text at its longest still fit, in any script
 * (11,400 characters an item, at most 4 bytes each in UTF-8: 2.3 MB). A vote refused for its size
 * would be lost.
 */
export const SAVE_BODY_LIMIT_BYTES = 4 * 1024 * 1024;
