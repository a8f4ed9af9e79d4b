//! The closed list of portability rules: a stable id for each, and the page of the
//! provider's documentation that states it.

use crate::provider::Provider;

/// One portability rule. The ids ([`Rule::id`]) are stable: CI scripts and the page's
/// tests key on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// The tool name is longer than the format allows.
    NameTooLong,
    /// The tool name has a character the format does not allow (or is empty).
    NameCharacters,
    /// The tool name does not start with a letter or `_` (Gemini).
    NameFirstCharacter,
    /// The tool has no description: the host sends an empty one.
    MissingDescription,
    /// `inputSchema` is not a JSON object (`true`, `null`, an array…).
    SchemaNotObject,
    /// The root schema's `type` is missing or not `"object"`.
    RootTypeNotObject,
    /// `anyOf`, `oneOf` or `allOf` at the root of the schema.
    RootComposition,
    /// An array schema without `items`.
    ArrayWithoutItems,
    /// A keyword Gemini's `Schema` does not have.
    GeminiUnknownKeyword,
    /// `$ref` or `$defs` / `definitions` under Gemini.
    GeminiRef,
    /// `const` under Gemini.
    GeminiConst,
    /// `oneOf` under Gemini.
    GeminiOneOf,
    /// A list of types under Gemini.
    GeminiTypeList,
    /// An `enum` with values that are not strings under Gemini.
    GeminiEnumNotStrings,
    /// A string `format` Gemini does not take.
    GeminiStringFormat,
    /// A keyword OpenAI's strict mode does not support.
    StrictUnsupportedKeyword,
    /// An object schema without `additionalProperties: false` in strict mode.
    StrictOpenObject,
    /// A property missing from `required` in strict mode.
    StrictOptionalProperty,
    /// A string `format` outside strict mode's list.
    StrictFormat,
    /// More levels of nested objects than strict mode allows.
    StrictTooDeep,
    /// More object properties in total than strict mode allows.
    StrictTooManyProperties,
    /// More enum values in total than strict mode allows.
    StrictTooManyEnumValues,
    /// A keyword Ollama's request types do not carry: gone once Ollama reads it.
    OllamaDroppedKeyword,
}

const ANTHROPIC_TOOLS: &str =
    "https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use";
const OPENAI_FUNCTIONS: &str = "https://platform.openai.com/docs/guides/function-calling";
const OPENAI_STRICT: &str =
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
const GEMINI_DECLARATION: &str = "https://ai.google.dev/api/caching#FunctionDeclaration";
const GEMINI_SCHEMA: &str = "https://ai.google.dev/api/caching#Schema";
const OLLAMA_TOOLS: &str =
    "https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request-with-tools";
const OLLAMA_TYPES: &str = "https://github.com/ollama/ollama/blob/main/api/types.go";

impl Rule {
    /// Every rule, in a fixed order.
    pub const ALL: [Rule; 23] = [
        Rule::NameTooLong,
        Rule::NameCharacters,
        Rule::NameFirstCharacter,
        Rule::MissingDescription,
        Rule::SchemaNotObject,
        Rule::RootTypeNotObject,
        Rule::RootComposition,
        Rule::ArrayWithoutItems,
        Rule::GeminiUnknownKeyword,
        Rule::GeminiRef,
        Rule::GeminiConst,
        Rule::GeminiOneOf,
        Rule::GeminiTypeList,
        Rule::GeminiEnumNotStrings,
        Rule::GeminiStringFormat,
        Rule::StrictUnsupportedKeyword,
        Rule::StrictOpenObject,
        Rule::StrictOptionalProperty,
        Rule::StrictFormat,
        Rule::StrictTooDeep,
        Rule::StrictTooManyProperties,
        Rule::StrictTooManyEnumValues,
        Rule::OllamaDroppedKeyword,
    ];

    /// The stable kebab-case id (`name-too-long`, `gemini-ref`…).
    pub fn id(self) -> &'static str {
        match self {
            Rule::NameTooLong => "name-too-long",
            Rule::NameCharacters => "name-characters",
            Rule::NameFirstCharacter => "name-first-character",
            Rule::MissingDescription => "missing-description",
            Rule::SchemaNotObject => "schema-not-object",
            Rule::RootTypeNotObject => "root-type-not-object",
            Rule::RootComposition => "root-composition",
            Rule::ArrayWithoutItems => "array-without-items",
            Rule::GeminiUnknownKeyword => "gemini-unknown-keyword",
            Rule::GeminiRef => "gemini-ref",
            Rule::GeminiConst => "gemini-const",
            Rule::GeminiOneOf => "gemini-one-of",
            Rule::GeminiTypeList => "gemini-type-list",
            Rule::GeminiEnumNotStrings => "gemini-enum-not-strings",
            Rule::GeminiStringFormat => "gemini-string-format",
            Rule::StrictUnsupportedKeyword => "strict-unsupported-keyword",
            Rule::StrictOpenObject => "strict-open-object",
            Rule::StrictOptionalProperty => "strict-optional-property",
            Rule::StrictFormat => "strict-format",
            Rule::StrictTooDeep => "strict-too-deep",
            Rule::StrictTooManyProperties => "strict-too-many-properties",
            Rule::StrictTooManyEnumValues => "strict-too-many-enum-values",
            Rule::OllamaDroppedKeyword => "ollama-dropped-keyword",
        }
    }

    /// Parses [`Rule::id`].
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.id() == id)
    }

    /// Whether the finding's pointer names a keyword inside a schema (its last
    /// segment), rather than the schema itself or a field of the tool.
    pub fn points_at_keyword(self) -> bool {
        matches!(
            self,
            Rule::RootComposition
                | Rule::GeminiUnknownKeyword
                | Rule::GeminiRef
                | Rule::GeminiConst
                | Rule::GeminiOneOf
                | Rule::GeminiTypeList
                | Rule::GeminiEnumNotStrings
                | Rule::GeminiStringFormat
                | Rule::StrictUnsupportedKeyword
                | Rule::StrictFormat
                | Rule::OllamaDroppedKeyword
        )
    }

    /// The provider's page that states the rule for `format`.
    pub fn doc(self, format: Provider) -> &'static str {
        match (self, format) {
            (Rule::OllamaDroppedKeyword, _) => OLLAMA_TYPES,
            (
                Rule::StrictUnsupportedKeyword
                | Rule::StrictOpenObject
                | Rule::StrictOptionalProperty
                | Rule::StrictFormat
                | Rule::StrictTooDeep
                | Rule::StrictTooManyProperties
                | Rule::StrictTooManyEnumValues,
                _,
            ) => OPENAI_STRICT,
            (Rule::NameTooLong | Rule::NameCharacters | Rule::NameFirstCharacter, p)
            | (Rule::MissingDescription, p)
                if p == Provider::Gemini =>
            {
                GEMINI_DECLARATION
            }
            (Rule::RootComposition, Provider::OpenAiChat | Provider::OpenAiResponses) => {
                OPENAI_STRICT
            }
            (_, Provider::Gemini) => GEMINI_SCHEMA,
            (_, Provider::Anthropic) => ANTHROPIC_TOOLS,
            (_, Provider::OpenAiChat | Provider::OpenAiResponses) => OPENAI_FUNCTIONS,
            (_, Provider::Ollama) => OLLAMA_TOOLS,
        }
    }
}
