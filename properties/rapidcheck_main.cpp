// Entry point of the RapidCheck suites: every property runs 1000 cases unless
// the caller sets RC_PARAMS (e.g. RC_PARAMS="reproduce=..." printed by a
// failure, or "max_success=100000" for a long run).
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char **argv) {
  setenv("RC_PARAMS", "max_success=1000", /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
