// The zone database reader: names and keys, offsets from TZif transitions and from the POSIX footer rule, local
// times in DST gaps and overlaps, fixed offsets, and the text forms of TIMESTAMP WITH TIME ZONE.

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/time_zone.hpp"
#include "common/zone_rules.hpp"

namespace kestrel {
namespace {

int64_t local(const char* text) { return *parse_timestamp(text); }

TEST(TimeZone, NamesAreCaseInsensitiveAndKeysStable) {
  const tz::ZoneKey la = tz::zone_key("america/los_angeles");
  EXPECT_EQ(la, tz::zone_key("America/Los_Angeles"));
  EXPECT_GE(la, tz::kFirstNamedZoneKey);
  EXPECT_EQ(tz::zone_name(la), "America/Los_Angeles");
  for (const char* utc : {"UTC", "etc/utc", "Z", "GMT", "+00:00", "Zulu"}) EXPECT_EQ(tz::zone_key(utc), tz::kUtc) << utc;
  EXPECT_EQ(tz::zone_name(tz::zone_key("+05:30")), "+05:30");
  EXPECT_EQ(tz::zone_name(tz::zone_key("-0800")), "-08:00");
  EXPECT_EQ(tz::zone_name(tz::zone_key("UTC+14:00")), "+14:00");
  EXPECT_FALSE(tz::find_zone("+14:01").has_value());
  EXPECT_FALSE(tz::find_zone("Mars/Olympus_Mons").has_value());
  EXPECT_THROW(tz::zone_key("Mars/Olympus_Mons"), InvalidInput);
}

TEST(TimeZone, GapsMoveForwardAndOverlapsTakeTheEarlierInstant) {
  const tz::ZoneKey la = tz::zone_key("America/Los_Angeles");
  // 2020-03-08 02:30 does not exist: 03:30 daylight time, 10:30 UTC.
  EXPECT_EQ(tz::local_to_utc(la, local("2020-03-08 02:30:00")), local("2020-03-08 10:30:00"));
  EXPECT_EQ(tz::local_to_utc(la, local("2020-03-08 01:59:59")), local("2020-03-08 09:59:59"));
  EXPECT_EQ(tz::local_to_utc(la, local("2020-03-08 03:00:00")), local("2020-03-08 10:00:00"));
  // 2020-11-01 01:30 happens twice: the daylight one first (08:30 UTC); 02:00 is standard time.
  EXPECT_EQ(tz::local_to_utc(la, local("2020-11-01 01:30:00")), local("2020-11-01 08:30:00"));
  EXPECT_EQ(tz::local_to_utc(la, local("2020-11-01 02:00:00")), local("2020-11-01 10:00:00"));
  EXPECT_EQ(tz::offset_seconds(la, local("2020-11-01 09:30:00")), -8 * 3600);
}

TEST(TimeZone, FooterRuleCoversYearsAfterTheTransitions) {
  const tz::ZoneKey ny = tz::zone_key("America/New_York");
  EXPECT_EQ(tz::offset_seconds(ny, local("2095-07-01 12:00:00")), -4 * 3600);
  EXPECT_EQ(tz::offset_seconds(ny, local("2095-12-01 12:00:00")), -5 * 3600);
  const tz::ZoneKey sydney = tz::zone_key("Australia/Sydney");  // daylight time over the turn of the year
  EXPECT_EQ(tz::offset_seconds(sydney, local("2095-01-01 00:00:00")), 11 * 3600);
  EXPECT_EQ(tz::offset_seconds(sydney, local("2095-07-01 00:00:00")), 10 * 3600);
}

TEST(TimeZone, PosixRules) {
  auto rule = tz::PosixRule::parse("EST5EDT,M3.2.0,M11.1.0");
  ASSERT_TRUE(rule.has_value());
  EXPECT_EQ(rule->std_offset, -5 * 3600);
  EXPECT_EQ(rule->dst_offset, -4 * 3600);
  auto fixed = tz::PosixRule::parse("<+0530>-5:30");
  ASSERT_TRUE(fixed.has_value());
  EXPECT_FALSE(fixed->has_dst);
  EXPECT_EQ(fixed->std_offset, 5 * 3600 + 1800);
  EXPECT_FALSE(tz::PosixRule::parse("EST5EDT,M13.2.0,M11.1.0").has_value());
  EXPECT_FALSE(tz::PosixRule::parse("").has_value());
}

TEST(TimeZone, MalformedFilesAreCleanErrors) {
  EXPECT_THROW(tz::ZoneRules::parse("Bad/Zone", "TZif2"), InvalidInput);
  EXPECT_THROW(tz::ZoneRules::parse("Bad/Zone", "not a zone file at all, but long enough for a header......"),
               InvalidInput);
}

TEST(TimeZone, TextForms) {
  const tz::ZoneKey kolkata = tz::zone_key("Asia/Kolkata");
  const TimestampTz v{local("2020-01-01 00:00:00"), kolkata, 0};
  EXPECT_EQ(tz::format_timestamp_tz(v), "2020-01-01 05:30:00.000 Asia/Kolkata");
  EXPECT_EQ(tz::format_timestamp_tz(TimestampTz{1, tz::kUtc, 0}), "1970-01-01 00:00:00.000001 UTC");
  auto parsed = tz::parse_timestamp_tz("2020-01-01 05:30:00 asia/kolkata", tz::kUtc);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, v);
  auto offset = tz::parse_timestamp_tz("2020-01-01T05:30:00+05:30", tz::kUtc);
  ASSERT_TRUE(offset.has_value());
  EXPECT_EQ(offset->micros, v.micros);
  EXPECT_EQ(tz::parse_timestamp_tz("2020-01-01 00:00:00", kolkata)->micros, local("2019-12-31 18:30:00"));
  EXPECT_FALSE(tz::parse_timestamp_tz("2020-13-01 00:00:00 UTC", tz::kUtc).has_value());
  EXPECT_THROW(tz::parse_timestamp_tz("2020-01-01 00:00:00 Nowhere/Land", tz::kUtc), InvalidInput);
  EXPECT_TRUE(tz::has_zone_suffix("2020-01-01 00:00 UTC"));
  EXPECT_FALSE(tz::has_zone_suffix("2020-01-01 00:00:00.5"));
  EXPECT_EQ(tz::iso_offset(kolkata, 0), "+05:30");
  EXPECT_EQ(tz::iso_offset(tz::kUtc, 0), "Z");
}

}  // namespace
}  // namespace kestrel
