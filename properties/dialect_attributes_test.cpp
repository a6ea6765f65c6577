// Placeholder replaced below once the dialect builds.
#include <gtest/gtest.h>
TEST(Build, Links) { SUCCEED(); }
