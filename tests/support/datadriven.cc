#include "tests/support/datadriven.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cassette {
namespace {

constexpr std::string_view kSeparator = "----";

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find('\n', i);
    if (j == std::string_view::npos) j = text.size();
    lines.emplace_back(text.substr(i, j - i));
    i = j + 1;
  }
  return lines;
}

std::string Trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool IsBlank(std::string_view line) { return Trim(line).empty(); }

// Splits "cmd a=1 b=(x, y) c=\"p q\" d" into the command and its arguments.
Status ParseDirective(std::string_view text, const std::string& pos, DdCase* c) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::string tok;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) {
      const char open = text[i];
      if (open == '(' || open == '"') {
        const char close = open == '(' ? ')' : '"';
        size_t end = text.find(close, i + 1);
        if (end == std::string_view::npos) {
          return Status::InvalidArgument(pos + ": unterminated " + std::string(1, open) +
                                         " in directive");
        }
        tok.append(text.substr(i, end + 1 - i));
        i = end + 1;
      } else {
        tok.push_back(text[i++]);
      }
    }
    tokens.push_back(std::move(tok));
  }
  if (tokens.empty()) return Status::InvalidArgument(pos + ": empty directive");
  c->cmd = tokens[0];
  for (size_t t = 1; t < tokens.size(); ++t) {
    const std::string& tok = tokens[t];
    DdArg arg;
    size_t eq = tok.find('=');
    arg.key = tok.substr(0, eq);
    if (arg.key.empty()) return Status::InvalidArgument(pos + ": argument without a key: " + tok);
    if (eq != std::string::npos) {
      std::string_view v = std::string_view(tok).substr(eq + 1);
      if (v.size() >= 2 && v.front() == '(' && v.back() == ')') {
        v = v.substr(1, v.size() - 2);
        size_t b = 0;
        while (b <= v.size()) {
          size_t comma = v.find(',', b);
          if (comma == std::string_view::npos) comma = v.size();
          std::string item = Trim(v.substr(b, comma - b));
          if (!item.empty()) arg.vals.push_back(std::move(item));
          b = comma + 1;
        }
      } else if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
        arg.vals.emplace_back(v.substr(1, v.size() - 2));
      } else {
        arg.vals.emplace_back(v);
      }
    }
    c->args.push_back(std::move(arg));
  }
  return Status::OK();
}

// The expected block as written in a file, for the rewriter.
std::string FormatOutput(const std::string& actual) {
  if (actual.empty()) return std::string(kSeparator) + "\n";
  const bool has_blank_line = actual.front() == '\n' || actual.find("\n\n") != std::string::npos;
  if (has_blank_line) return "----\n----\n" + actual + "----\n----\n";
  return "----\n" + actual;
}

std::string Normalize(std::string actual) {
  if (!actual.empty() && actual.back() != '\n') actual.push_back('\n');
  return actual;
}

bool RewriteRequested() {
  const char* v = std::getenv("CASSETTE_REWRITE");
  return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

}  // namespace

const DdArg* DdCase::FindArg(std::string_view key) const {
  for (const auto& a : args) {
    if (a.key == key) return &a;
  }
  return nullptr;
}

std::string DdCase::ArgOr(std::string_view key, std::string_view def) const {
  const DdArg* a = FindArg(key);
  if (a == nullptr || a->vals.empty()) return std::string(def);
  return a->vals[0];
}

int64_t DdCase::IntArgOr(std::string_view key, int64_t def) const {
  const DdArg* a = FindArg(key);
  if (a == nullptr || a->vals.empty()) return def;
  const std::string& s = a->vals[0];
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) {
    ADD_FAILURE_AT(file.c_str(), line) << "argument " << key << "=" << s << " is not an integer";
    return def;
  }
  return v;
}

std::string DdCase::Pos() const { return file + ":" + std::to_string(line); }

Result<std::vector<DdCase>> ParseDataDriven(std::string_view text, const std::string& file) {
  const std::vector<std::string> lines = SplitLines(text);
  const int n = static_cast<int>(lines.size());
  std::vector<DdCase> cases;
  int i = 0;
  while (i < n) {
    if (IsBlank(lines[i]) || lines[i][0] == '#') {
      ++i;
      continue;
    }
    DdCase c;
    c.file = file;
    c.line = i + 1;
    const std::string pos = c.Pos();
    std::string directive = lines[i];
    while (!directive.empty() && directive.back() == '\\') {
      directive.pop_back();
      if (++i >= n) return Status::InvalidArgument(pos + ": continued directive at end of file");
      directive += " " + lines[i];
    }
    if (directive == kSeparator)
      return Status::InvalidArgument(pos + ": separator without a directive");
    CASSETTE_RETURN_IF_ERROR(ParseDirective(directive, pos, &c));
    ++i;

    std::vector<std::string> input;
    while (i < n && lines[i] != kSeparator) input.push_back(lines[i++]);
    if (i >= n) return Status::InvalidArgument(pos + ": missing ---- after " + c.cmd);
    for (size_t k = 0; k < input.size(); ++k) {
      if (k > 0) c.input += '\n';
      c.input += input[k];
    }
    c.output_begin = i++;

    if (i < n && lines[i] == kSeparator) {
      // Doubled separators: the block ends at the next "----\n----".
      ++i;
      while (true) {
        if (i + 1 >= n) return Status::InvalidArgument(pos + ": missing closing ----/---- block");
        if (lines[i] == kSeparator && lines[i + 1] == kSeparator) break;
        c.expected += lines[i++] + "\n";
      }
      i += 2;
    } else {
      while (i < n && !IsBlank(lines[i])) c.expected += lines[i++] + "\n";
    }
    c.output_end = i;
    cases.push_back(std::move(c));
  }
  return cases;
}

void RunDataDriven(const std::filesystem::path& file,
                   const std::function<std::string(const DdCase&)>& run) {
  const std::string name = file.string();
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      ADD_FAILURE() << "cannot read datadriven file " << name;
      return;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  Result<std::vector<DdCase>> parsed = ParseDataDriven(text, name);
  if (!parsed.ok()) {
    ADD_FAILURE() << parsed.status().ToString();
    return;
  }

  const bool rewrite = RewriteRequested();
  const std::vector<std::string> lines = SplitLines(text);
  std::string rewritten;
  int copied = 0;  // lines of the original already emitted
  for (const DdCase& c : *parsed) {
    std::string actual;
    {
      SCOPED_TRACE(c.Pos() + ": " + c.cmd);
      actual = Normalize(run(c));
    }
    if (rewrite) {
      for (; copied < c.output_begin; ++copied) rewritten += lines[copied] + "\n";
      rewritten += FormatOutput(actual);
      copied = c.output_end;
      // A doubled block may have been followed directly by the next case;
      // a single block needs a blank line to end it.
      if (copied < static_cast<int>(lines.size()) && !IsBlank(lines[copied])) rewritten += "\n";
    } else if (actual != c.expected) {
      ADD_FAILURE_AT(name.c_str(), c.line) << "output of '" << c.cmd << "' differs\n"
                                           << "expected:\n"
                                           << c.expected << "actual:\n"
                                           << actual;
    }
  }
  if (!rewrite) return;
  for (; copied < static_cast<int>(lines.size()); ++copied) rewritten += lines[copied] + "\n";
  // Keep a file that did not end in a newline as it was.
  if (!text.empty() && text.back() != '\n' && !rewritten.empty()) rewritten.pop_back();
  if (rewritten == text) return;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << rewritten;
  if (!out) ADD_FAILURE() << "cannot rewrite datadriven file " << name;
}

std::vector<std::string> ListTestdata(std::string_view dir) {
  const char* env = std::getenv("CASSETTE_SOURCE_DIR");
  std::filesystem::path root = env != nullptr && *env != '\0' ? env : CASSETTE_SOURCE_DIR;
  std::filesystem::path full = root / "tests" / std::filesystem::path(dir);
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(full, ec)) {
    if (!entry.is_regular_file()) continue;
    const std::string fname = entry.path().filename().string();
    if (fname.empty() || fname[0] == '.' || fname.back() == '~') continue;
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string FileNameOnly(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::path(info.param).filename().string();
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

}  // namespace cassette
