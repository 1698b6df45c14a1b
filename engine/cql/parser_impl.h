// The CQL parser (parser.h's ParseStatement), a recursive-descent parser
// for the statements of ast.h following Cassandra 4/5's grammar (Cql.g /
// Parser.g). Its methods are defined by statement family, along the
// grammar's seams:
//   parser.cc               entry point, statement dispatch, TRUNCATE, USE, DESCRIBE
//   parser_select.cc        SELECT, selectors, WHERE relations
//   parser_modification.cc  INSERT, UPDATE, DELETE, BATCH, USING, IF conditions
//   parser_schema.cc        CREATE/ALTER/DROP of keyspaces and tables, properties, types
//   parser_terms.cc         literals, terms, bind markers, function calls in terms
// User type statements have a grammar of their own (parser_types.cc). Internal
// to engine/cql.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cassette/status.h"
#include "engine/cql/ast.h"
#include "engine/cql/lexer.h"
#include "engine/cql/parser_cursor.h"

namespace cassette::cql {

class Parser : public TokenCursor {
 public:
  Parser(std::string_view text, std::vector<Token> tokens) : TokenCursor(text, std::move(tokens)) {}

  Result<ParsedStatement> Run();

 private:
  // ---- statements (parser.cc) ----

  bool ParseStatementInto(Statement* out);
  template <class T>
  bool Into(Statement* out, bool (Parser::*parse)(T*));
  bool Truncate(TruncateStatement* s);
  bool Use(UseStatement* s);
  bool Describe(DescribeStatement* s);

  // ---- SELECT, WHERE, selectors (parser_select.cc) ----

  bool Select(SelectStatement* s);
  bool Relations(std::vector<Relation>* out);
  bool ParseRelation(Relation* r);
  bool ColumnRelation(Relation* r);
  bool RelationValue(Relation* r);
  bool ComparisonOperator(Operator* op);
  bool InValues(Relation* r);
  bool AliasedSelector(Selector* out);
  bool UnaliasedSelector(Selector* out);
  bool IsSignedNumber() const;
  bool ParenthesisedSelector(Selector* out);
  bool SelectorOperand(Selector* out);
  bool ColumnSelector(Selector* out);
  bool IsRangeDots() const;
  static std::string ColumnUnder(const Selector& selector);

  // ---- INSERT, UPDATE, DELETE, BATCH, USING, IF (parser_modification.cc) ----

  bool Insert(InsertStatement* s);
  bool JsonValue(Term* out);
  bool Update(UpdateStatement* s);
  bool ParseAssignment(Assignment* a);
  bool Delete(DeleteStatement* s);
  bool Batch(BatchStatement* s);
  bool OptionalUsing(bool allow_ttl, UsingClause* out);
  bool OptionalConditions(bool* if_exists, std::vector<Relation>* conditions);

  // ---- CREATE, ALTER, DROP, types (parser_schema.cc) ----

  bool Create(Statement* out);
  bool CreateTable(CreateTableStatement* s);
  bool MultiplePrimaryKeys();
  bool PrimaryKeyClause(bool already_has_one, CreateTableStatement* s);
  bool TableOption(CreateTableStatement* s);
  bool Properties(std::vector<Property>* out);
  bool ParseProperty(Property* p);
  bool PropertyConstant(std::string* out);
  bool Alter(Statement* out);
  bool AlterTable(AlterTableStatement* s);
  bool Drop(Statement* out);
  bool Type(std::string* out);

  // ---- terms (parser_terms.cc) ----

  bool IntValue(Term* out);
  bool BindMarker(Term* out);
  bool StartsTerm(size_t ahead = 0) const;
  bool ParseTerm(Term* out);
  bool MultiplicativeTerm(Term* out);
  static Term Operation(std::string op, Term left, Term right);
  bool UnaryTerm(Term* out);
  static void Constant(Term::Literal literal, std::string text, Term* out);
  bool PrimaryTerm(Term* out);
  bool FunctionTerm(Term* out);
  bool FunctionNameAt(std::string* out);
  bool CastTerm(Term* out);
  bool ListLiteral(Term* out);
  bool BraceLiteral(Term* out);
  bool UserTypeLiteral(Term* out);
  bool IsTypeHint() const;
  bool ParenthesisedTerm(Term* out);
  bool TupleLiteral(Term* out);

  // Nesting ([[[...]]], f(f(...)), list<list<...>>) is bounded so that no
  // input can exhaust the stack.
  static constexpr int kMaxDepth = 200;
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* parser) : parser_(parser) { ++parser_->depth_; }
    ~DepthGuard() { --parser_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    bool TooDeep() const { return parser_->depth_ > kMaxDepth; }

   private:
    Parser* parser_;
  };

  int depth_ = 0;
  std::vector<std::string> bind_names_;
};

}  // namespace cassette::cql
