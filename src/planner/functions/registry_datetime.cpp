// Registry entries: date and time functions.

#include "planner/functions/registry_tables.hpp"

namespace kestrel::plan::registry {

namespace {

using F = ScalarFunction;

constexpr std::string_view kNullGivesNull = "NULL when any argument is NULL.";
constexpr std::string_view kFieldOf = "NULL when x is NULL.";

constexpr FunctionEntry kDatetime[] = {
    rewrite("current_date",
            {"current_date -> DATE", "The date in the session's time zone (SET time_zone) at the start of the "
             "statement: the same value everywhere in one statement. Written without parentheses.", "Never NULL.",
             "current_date", ""}),
    rewrite("current_timestamp",
            {"current_timestamp -> TIMESTAMP WITH TIME ZONE",
             "The instant (in milliseconds) the statement started, in the session's time zone (SET time_zone; UTC by "
             "default): the same value everywhere in one statement. Written without parentheses.",
             "Never NULL.", "current_timestamp", ""}),
    rewrite("now", {"now() -> TIMESTAMP WITH TIME ZONE", "The same as current_timestamp.", "Never NULL.", "now()",
                    ""}),
    scalar("with_timezone", F::kWithTimezone, 2, 2,
           {"with_timezone(x TIMESTAMP, zone VARCHAR) -> TIMESTAMP WITH TIME ZONE",
            "The wall-clock time x in zone: an IANA name (case-insensitive), UTC or an offset such as +05:30. A "
            "time that a daylight-saving change skips moves forward by the gap (02:30 becomes 03:30); a time that "
            "occurs twice is the earlier instant. An unknown zone is an error.",
            kNullGivesNull, "with_timezone(TIMESTAMP '2020-03-08 02:30:00', 'America/Los_Angeles')",
            "2020-03-08 03:30:00.000 America/Los_Angeles"}),
    scalar("at_timezone", F::kAtTimezone, 2, 2,
           {"at_timezone(x TIMESTAMP WITH TIME ZONE, zone VARCHAR) -> TIMESTAMP WITH TIME ZONE",
            "The same instant as x, shown in zone. Also written x AT TIME ZONE zone. A TIMESTAMP x is first taken "
            "in the session's time zone.",
            kNullGivesNull, "at_timezone(TIMESTAMP '2020-01-01 12:00:00 UTC', 'Asia/Kolkata')",
            "2020-01-01 17:30:00.000 Asia/Kolkata"}),
    scalar("timezone_hour", F::kTimezoneHour, 1, 1,
           {"timezone_hour(x TIMESTAMP WITH TIME ZONE) -> BIGINT",
            "The hours of x's offset from UTC at that instant (negative west of Greenwich). Also extract(timezone_hour "
            "FROM x).",
            kFieldOf, "timezone_hour(TIMESTAMP '2020-07-01 00:00:00 America/New_York')", "-4"}),
    scalar("timezone_minute", F::kTimezoneMinute, 1, 1,
           {"timezone_minute(x TIMESTAMP WITH TIME ZONE) -> BIGINT",
            "The minutes of x's offset from UTC beyond its whole hours, with the offset's sign.", kFieldOf,
            "timezone_minute(TIMESTAMP '2020-07-01 00:00:00 Asia/Kolkata')", "30"}),
    scalar("from_iso8601_timestamp", F::kFromIso8601Timestamp, 1, 1,
           {"from_iso8601_timestamp(string VARCHAR) -> TIMESTAMP WITH TIME ZONE",
            "The ISO 8601 date and time in string (YYYY-MM-DD[THH:MM[:SS[.fff]]] and an offset: Z, +HH:MM, +HHMM or "
            "+HH); without an offset, the wall-clock time in the session's time zone. An error for other text.",
            "NULL when string is NULL.", "from_iso8601_timestamp('2020-05-11T11:15:05.123+05:30')",
            "2020-05-11 11:15:05.123 +05:30"}),
    scalar("date_add", F::kDateAdd, 3, 3,
           {"date_add(unit VARCHAR, amount BIGINT, x DATE) -> DATE\n"
            "date_add(unit VARCHAR, amount BIGINT, x TIMESTAMP) -> TIMESTAMP",
            "x plus amount units: day, week, month, quarter or year, and on a TIMESTAMP also hour, minute, second "
            "or millisecond. Adding months keeps the day, or takes the last day of a shorter month. unit must be a "
            "constant.",
            kNullGivesNull, "date_add('month', 1, DATE '2024-01-31')", "2024-02-29"}),
    scalar("date_diff", F::kDateDiff, 3, 3,
           {"date_diff(unit VARCHAR, from DATE or TIMESTAMP, to DATE or TIMESTAMP) -> BIGINT",
            "The number of whole units (as for date_add) from from to to, negative when to is earlier. A DATE "
            "compared with a TIMESTAMP counts as its midnight.",
            kNullGivesNull, "date_diff('day', DATE '2024-01-01', DATE '2024-03-01')", "60"}),
    scalar("date_format", F::kDateFormat, 2, 2,
           {"date_format(x TIMESTAMP, format VARCHAR) -> VARCHAR",
            "x written with MySQL's format specifiers: %Y year, %y two-digit year, %m month 01-12, %c month 1-12, "
            "%M month name, %b short month name, %d day 01-31, %e day 1-31, %j day of year, %H hour 00-23, %k hour "
            "0-23, %h / %I hour 01-12, %l hour 1-12, %i minutes, %S / %s seconds, %f microseconds (6 digits), %p AM "
            "or PM, %r (hh:mm:ss AM), %T (HH:mm:ss), %W weekday name, %a short weekday name, %v ISO week, %x its "
            "year, %% a percent sign; %D, %U, %u, %V, %w and %X are errors, as in Presto; %c for another character "
            "c gives c. A DATE is taken at midnight.",
            kNullGivesNull, "date_format(TIMESTAMP '2024-05-17 14:03:09', '%W %e %M %Y, %h:%i %p')",
            "Friday 17 May 2024, 02:03 PM"}),
    scalar("date_parse", F::kDateParse, 2, 2,
           {"date_parse(string VARCHAR, format VARCHAR) -> TIMESTAMP",
            "string read with the format specifiers of date_format (%y reads 70-99 as 19xx and 00-69 as 20xx, %f "
            "reads 1 to 9 digits); fields not in format take 1970-01-01 00:00:00. An error when string does not "
            "match format completely or a field is out of range.",
            kNullGivesNull, "date_parse('17/05/2024 14:03', '%d/%m/%Y %H:%i')", "2024-05-17 14:03:00"}),
    scalar("date_trunc", F::kDateTrunc, 2, 2,
           {"date_trunc(unit VARCHAR, x DATE) -> DATE\ndate_trunc(unit VARCHAR, x TIMESTAMP) -> TIMESTAMP",
            "x truncated to the start of its unit: millennium, century, decade, year, quarter, month, week (Monday), "
            "day, hour, minute, second, millisecond or microsecond. unit must be a constant.",
            kNullGivesNull, "date_trunc('month', DATE '2024-05-17')", "2024-05-01"}),
    scalar("extract", F::kExtract, 2, 2,
           {"extract(field FROM x) -> BIGINT",
            "A field of a DATE, TIMESTAMP or INTERVAL: year, quarter, month, week (ISO), day, dow (0 = Sunday, as "
            "PostgreSQL), isodow (1 = Monday), doy, hour, minute, second (whole seconds), millisecond, microsecond, "
            "epoch, decade, century, millennium. Also written date_part('field', x).",
            "NULL when x is NULL.", "extract(doy FROM DATE '2024-02-01')", "32"}),
    alias("date_part", "extract", F::kExtract, 2, 2),
    scalar("format_datetime", F::kFormatDatetime, 2, 2,
           {"format_datetime(x TIMESTAMP, pattern VARCHAR) -> VARCHAR",
            "x written with a Joda-Time pattern: y year (yy two digits), Y year of era, x week year, w week, M month "
            "(MMM short name, MMMM name), d day, D day of year, e day of week number, E weekday (EEEE full name), a "
            "AM/PM, H hour 0-23, k hour 1-24, h hour 1-12, K hour 0-11, m minute, s second, S fraction, G era, C "
            "century, z and Z the zone (always UTC); repeating a number letter pads it with zeros; text in single "
            "quotes is copied ('' is a quote). Other letters are errors.",
            kNullGivesNull, "format_datetime(TIMESTAMP '2024-05-17 14:03:09', 'EEE, dd MMM yyyy HH:mm:ss')",
            "Fri, 17 May 2024 14:03:09"}),
    scalar("from_unixtime", F::kFromUnixtime, 1, 3,
           {"from_unixtime(seconds DOUBLE) -> TIMESTAMP\n"
            "from_unixtime(seconds DOUBLE, zone VARCHAR) -> TIMESTAMP WITH TIME ZONE\n"
            "from_unixtime(seconds DOUBLE, hours BIGINT, minutes BIGINT) -> TIMESTAMP WITH TIME ZONE",
            "The TIMESTAMP (UTC) seconds after 1970-01-01 00:00:00, rounded to microseconds; with a zone, or an offset "
            "of hours and minutes, that instant in it. An error when seconds is not finite or out of range.",
            kNullGivesNull, "from_unixtime(1715954589.5)", "2024-05-17 14:03:09.5"}),
    scalar("last_day_of_month", F::kLastDayOfMonth, 1, 1,
           {"last_day_of_month(x DATE or TIMESTAMP) -> DATE", "The last day of the month of x.", kFieldOf,
            "last_day_of_month(DATE '2024-02-10')", "2024-02-29"}),
    scalar("to_unixtime", F::kToUnixtime, 1, 1,
           {"to_unixtime(x TIMESTAMP or TIMESTAMP WITH TIME ZONE) -> DOUBLE",
            "The seconds from 1970-01-01 00:00:00 UTC to x (a TIMESTAMP read as UTC).", kNullGivesNull,
            "to_unixtime(TIMESTAMP '2024-05-17 14:03:09.5')", "1715954589.5"}),
    rewrite("day", {"day(x) -> BIGINT", "The day of the month of a DATE or TIMESTAMP x, as extract(day FROM x).",
                    kFieldOf, "day(DATE '2024-05-17')", "17"}),
    rewrite_alias("day_of_month", "day"),
    rewrite("day_of_week", {"day_of_week(x) -> BIGINT", "The ISO day of the week of x: 1 = Monday to 7 = Sunday.",
                            kFieldOf, "day_of_week(DATE '2024-05-19')", "7"}),
    rewrite_alias("dow", "day_of_week"),
    rewrite("day_of_year", {"day_of_year(x) -> BIGINT", "The day of the year of x, from 1.", kFieldOf,
                            "day_of_year(DATE '2024-02-01')", "32"}),
    rewrite_alias("doy", "day_of_year"),
    rewrite("hour", {"hour(x) -> BIGINT", "The hour of x, 0 to 23 (0 for a DATE).", kFieldOf,
                     "hour(TIMESTAMP '2024-05-17 14:03:09')", "14"}),
    rewrite("millisecond", {"millisecond(x) -> BIGINT", "The millisecond of the second of x, 0 to 999.", kFieldOf,
                            "millisecond(TIMESTAMP '2024-05-17 14:03:09.25')", "250"}),
    rewrite("minute", {"minute(x) -> BIGINT", "The minute of x, 0 to 59.", kFieldOf,
                       "minute(TIMESTAMP '2024-05-17 14:03:09')", "3"}),
    rewrite("month", {"month(x) -> BIGINT", "The month of x, 1 to 12.", kFieldOf, "month(DATE '2024-05-17')", "5"}),
    rewrite("quarter", {"quarter(x) -> BIGINT", "The quarter of x, 1 to 4.", kFieldOf, "quarter(DATE '2024-05-17')",
                        "2"}),
    rewrite("second", {"second(x) -> BIGINT", "The whole seconds of x, 0 to 59.", kFieldOf,
                       "second(TIMESTAMP '2024-05-17 14:03:09.5')", "9"}),
    rewrite("week", {"week(x) -> BIGINT", "The ISO 8601 week of x, 1 to 53.", kFieldOf, "week(DATE '2024-12-30')",
                     "1"}),
    rewrite_alias("week_of_year", "week"),
    rewrite("year", {"year(x) -> BIGINT", "The year of x.", kFieldOf, "year(DATE '2024-05-17')", "2024"}),
    scalar("from_iso8601_date", F::kFromIso8601Date, 1, 1,
           {"from_iso8601_date(string VARCHAR) -> DATE",
            "The ISO 8601 date in string: YYYY-MM-DD, YYYY-MM, YYYY, a week date YYYY-Www[-D] or an ordinal date "
            "YYYY-DDD; an error otherwise.", "NULL when string is NULL.", "from_iso8601_date('2020-W10-1')",
            "2020-03-02"}),
    scalar("to_iso8601", F::kToIso8601, 1, 1,
           {"to_iso8601(x DATE, TIMESTAMP or TIMESTAMP WITH TIME ZONE) -> VARCHAR",
            "x in ISO 8601: YYYY-MM-DD for a date, YYYY-MM-DDTHH:MM:SS.mmm for a timestamp, followed by the offset "
            "(Z for UTC, +05:30) for a timestamp with a time zone.", "NULL when x is NULL.",
            "to_iso8601(TIMESTAMP '2020-05-11 11:15:05')", "2020-05-11T11:15:05.000"}),
    scalar("to_milliseconds", F::kToMilliseconds, 1, 1,
           {"to_milliseconds(x INTERVAL) -> BIGINT",
            "The length of a day-to-second interval in milliseconds; an error for an interval with months.",
            "NULL when x is NULL.", "to_milliseconds(INTERVAL '1' HOUR)", "3600000"}),
    scalar("parse_duration", F::kParseDuration, 1, 1,
           {"parse_duration(string VARCHAR) -> INTERVAL",
            "The duration string gives, a number and a unit (ns, us, ms, s, m, h, d), as an interval (to the "
            "microsecond); an error for any other text.", "NULL when string is NULL.", "parse_duration('1.5 h')",
            "01:30:00"}),
    scalar("year_of_week", F::kYearOfWeek, 1, 1,
           {"year_of_week(x DATE or TIMESTAMP) -> BIGINT",
            "The ISO 8601 week-numbering year of x (the year of the Thursday of its week).", "NULL when x is NULL.",
            "year_of_week(DATE '2024-12-30')", "2025"}),
    alias("yow", "year_of_week", F::kYearOfWeek, 1, 1),
    // More scalar functions (issue 15).
    rewrite("current_time",
            {"current_time -> VARCHAR",
             "The statement's time of day in the session's time zone as text, `HH:MM:SS.mmm zone`. Kestrel has no "
             "TIME WITH TIME ZONE type, so the value is VARCHAR (Presto's type differs).",
             "Never NULL.", "current_time", ""}),
    rewrite("localtime",
            {"localtime -> VARCHAR",
             "The statement's time of day in the session's time zone as text, `HH:MM:SS.mmm`. Kestrel has no TIME "
             "type, so the value is VARCHAR (Presto's type differs).",
             "Never NULL.", "localtime", ""}),
    rewrite("date", {"date(x) -> DATE", "The same as CAST(x AS DATE).", "NULL when x is NULL.",
                     "date(TIMESTAMP '2024-05-17 10:30:00')", "2024-05-17"}),
    scalar("parse_datetime", F::kParseDatetime, 2, 2,
           {"parse_datetime(string VARCHAR, format VARCHAR) -> TIMESTAMP WITH TIME ZONE",
            "string read with the Joda-Time pattern format (the letters of format_datetime, except C, x, w and e): "
            "numbers take up to their field's width of digits (years any number), month and weekday names match "
            "in any case, yy is a year within 50 years of 2000, and the whole string must match. Fields the pattern "
            "lacks take 1970-01-01 00:00:00. The zone is the one string gives (Z, ZZ: an offset or Z; ZZZ, z: a "
            "zone name), else the session's. An error when string does not match.",
            kNullGivesNull, "parse_datetime('2024-05-17 10:30 +02:00', 'yyyy-MM-dd HH:mm ZZ')",
            "2024-05-17 10:30:00.000 +02:00"}),
};

}  // namespace

std::span<const FunctionEntry> datetime_functions() { return kDatetime; }

}  // namespace kestrel::plan::registry
