// FileAccess, the file sandbox of served sessions: files, folders and globs below the allowed folders pass; `..`,
// absolute paths elsewhere, and symbolic links (named directly, inside an allowed folder, or matched by a glob) that
// lead outside are refused with SQLSTATE 42501 naming the path; an unrestricted FileAccess allows everything.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "catalog/file_access.hpp"
#include "common/error.hpp"

namespace kestrel::catalog {
namespace {

namespace fs = std::filesystem;

class FileAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("kestrel-file-access-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "served" / "t");
    fs::create_directories(root_ / "outside");
    touch(root_ / "served" / "t" / "a.parquet");
    touch(root_ / "served" / "b.csv");
    touch(root_ / "outside" / "secret.csv");
    access_.restrict_to({(root_ / "served").string()});
  }
  void TearDown() override { fs::remove_all(root_); }
  static void touch(const fs::path& p) { std::ofstream(p) << "x\n"; }
  /// The SQLSTATE and message of check_read/check_write, or "" when allowed.
  std::string read(const fs::path& p) { return outcome([&] { access_.check_read(p.string()); }); }
  std::string write(const fs::path& p) { return outcome([&] { access_.check_write(p.string()); }); }
  template <typename F>
  static std::string outcome(F f) {
    try {
      f();
    } catch (const InvalidInput& e) {
      return e.code() + ": " + e.message();
    }
    return "";
  }

  fs::path root_;
  FileAccess access_;
};

TEST_F(FileAccessTest, FilesFoldersAndGlobsInsideAreAllowed) {
  EXPECT_EQ(read(root_ / "served" / "b.csv"), "");
  EXPECT_EQ(read(root_ / "served" / "t"), "");
  EXPECT_EQ(read(root_ / "served" / "t" / "*.parquet"), "");
  EXPECT_EQ(read(root_ / "served" / "t" / ".." / "b.csv"), "");
  EXPECT_EQ(write(root_ / "served" / "new.parquet"), "");
}

TEST_F(FileAccessTest, PathsOutsideAreRefused) {
  const std::string secret = read(root_ / "outside" / "secret.csv");
  EXPECT_EQ(secret.rfind("42501: cannot read '", 0), 0u) << secret;
  EXPECT_NE(secret.find("secret.csv"), std::string::npos);
  EXPECT_NE(secret.find((root_ / "served").string()), std::string::npos) << "names the allowed folder";
  EXPECT_NE(read("/etc/passwd"), "");
  EXPECT_NE(read(root_ / "served" / ".." / "outside" / "secret.csv"), "");
  EXPECT_NE(read(root_ / "outside" / "*.csv"), "");
  EXPECT_NE(read(root_ / "*" / "secret.csv"), "");
  EXPECT_NE(write(root_ / "outside" / "x.parquet"), "");
  EXPECT_NE(write("/tmp/kestrel-elsewhere.csv"), "");
  // A folder whose name starts like the allowed one is not inside it.
  fs::create_directories(root_ / "served2");
  EXPECT_NE(read(root_ / "served2"), "");
}

TEST_F(FileAccessTest, SymbolicLinksLeadingOutsideAreRefused) {
  fs::create_symlink(root_ / "outside" / "secret.csv", root_ / "served" / "link.csv");
  EXPECT_NE(read(root_ / "served" / "link.csv"), "") << "a link named directly";
  EXPECT_NE(read(root_ / "served" / "*.csv"), "") << "a link matched by a glob";
  EXPECT_NE(read(root_ / "served"), "") << "a link inside a folder";
  fs::create_directory_symlink(root_ / "outside", root_ / "served" / "t" / "dirlink");
  EXPECT_NE(read(root_ / "served" / "t"), "") << "a folder link inside a folder";
  EXPECT_NE(write(root_ / "served" / "t" / "dirlink" / "x.parquet"), "") << "writing through a folder link";
  EXPECT_NE(write(root_ / "served" / "link.csv"), "") << "writing over a link";
  // A file whose literal name is the pattern does not hide what the pattern matches.
  touch(root_ / "served" / "*.csv");
  EXPECT_NE(read(root_ / "served" / "*.csv"), "") << "a glob with a file of its literal name";
}

TEST_F(FileAccessTest, UnrestrictedAllowsEverything) {
  FileAccess open;
  EXPECT_FALSE(open.restricted());
  EXPECT_NO_THROW(open.check_read("/etc/passwd"));
  EXPECT_NO_THROW(open.check_write("/tmp/anything.csv"));
  EXPECT_THROW(FileAccess().restrict_to({(root_ / "missing").string()}), IoError);
}

}  // namespace
}  // namespace kestrel::catalog
