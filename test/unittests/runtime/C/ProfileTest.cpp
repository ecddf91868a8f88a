//===- ProfileTest.cpp - The loop nests' profile --------------------------===//
//
// Tests that relay_rt_profile_record sums each name's calls and time, that
// names are told apart by address, in the order of first record, that
// reset forgets, and that records from several threads all count.
//
//===----------------------------------------------------------------------===//

#include "runtime/C/RelayRuntime.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

struct Row {
  const char *name;
  int64_t calls;
  double milliseconds;
};

std::vector<Row> report() {
  std::vector<Row> rows;
  relay_rt_profile_report(
      [](const char *name, int64_t calls, double milliseconds, void *context) {
        static_cast<std::vector<Row> *>(context)->push_back(
            {name, calls, milliseconds});
      },
      &rows);
  return rows;
}

TEST(ProfileTest, SumsByNameInOrderOfFirstRecord) {
  static const char conv[] = "conv", relu[] = "relu";
  // The same text at another address is another name.
  std::string copy = "conv";
  relay_rt_profile_reset();
  int64_t now = relay_rt_profile_clock();
  // Times are what passed since `start`: a start 2 ms ago counts 2 ms.
  relay_rt_profile_record(relu, now - 2000000);
  relay_rt_profile_record(conv, now - 1000000);
  relay_rt_profile_record(relu, now - 3000000);
  relay_rt_profile_record(copy.c_str(), now);
  std::vector<Row> rows = report();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, relu);
  EXPECT_EQ(rows[0].calls, 2);
  EXPECT_GE(rows[0].milliseconds, 5.0);
  EXPECT_LT(rows[0].milliseconds, 5.0 + 1000.0);
  EXPECT_EQ(rows[1].name, conv);
  EXPECT_EQ(rows[1].calls, 1);
  EXPECT_GE(rows[1].milliseconds, 1.0);
  EXPECT_EQ(rows[2].name, copy.c_str());
  EXPECT_GE(rows[2].milliseconds, 0.0);

  relay_rt_profile_reset();
  EXPECT_TRUE(report().empty());
}

TEST(ProfileTest, CountsEveryThreadsRecords) {
  // More names than the first allocation holds, from two threads at once.
  static char names[100];
  relay_rt_profile_reset();
  auto work = [] {
    for (int round = 0; round < 50; ++round)
      for (char &name : names)
        relay_rt_profile_record(&name, relay_rt_profile_clock());
  };
  std::thread other(work);
  work();
  other.join();
  std::vector<Row> rows = report();
  ASSERT_EQ(rows.size(), 100u);
  for (const Row &row : rows)
    EXPECT_EQ(row.calls, 100);
  relay_rt_profile_reset();
}

} // namespace
