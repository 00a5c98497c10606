/** Test builds only: the UI's beforeSend drops events whose message contains this marker. */
export const TEST_DROP_MARKER = "periscope-test-drop";
