//! Ours → twin, field by field, so that values read both ways compare.

use mcpg_core::model::{
    Annotations, BlobResourceContents, CallToolResult, ContentBlock, DiscoverResult,
    EmbeddedResource, ImageContent, Implementation, InitializeResult, ListToolsResult,
    ResourceContents, ResourceLink, TextContent, TextResourceContents, Tool, ToolAnnotations,
};

use super::*;

pub fn annotations(a: &Annotations) -> TAnnotations {
    TAnnotations {
        audience: a.audience.clone(),
        priority: a.priority,
        extra: a.extra.clone(),
    }
}

fn ann(a: &Option<Annotations>) -> Option<TAnnotations> {
    a.as_ref().map(annotations)
}

pub fn text(t: &TextContent) -> TText {
    TText {
        text: t.text.clone(),
        annotations: ann(&t.annotations),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

pub fn image(i: &ImageContent) -> TImage {
    TImage {
        data: i.data.clone(),
        mime_type: i.mime_type.clone(),
        annotations: ann(&i.annotations),
        meta: i.meta.clone(),
        extra: i.extra.clone(),
    }
}

pub fn link(l: &ResourceLink) -> TLink {
    TLink {
        uri: l.uri.clone(),
        name: l.name.clone(),
        title: l.title.clone(),
        description: l.description.clone(),
        mime_type: l.mime_type.clone(),
        size: l.size,
        annotations: ann(&l.annotations),
        meta: l.meta.clone(),
        extra: l.extra.clone(),
    }
}

fn text_res(t: &TextResourceContents) -> TTextRes {
    TTextRes {
        uri: t.uri.clone(),
        mime_type: t.mime_type.clone(),
        text: t.text.clone(),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

fn blob_res(b: &BlobResourceContents) -> TBlobRes {
    TBlobRes {
        uri: b.uri.clone(),
        mime_type: b.mime_type.clone(),
        blob: b.blob.clone(),
        meta: b.meta.clone(),
        extra: b.extra.clone(),
    }
}

pub fn embedded(e: &EmbeddedResource) -> TEmbedded {
    TEmbedded {
        resource: match &e.resource {
            ResourceContents::Text(t) => TResContents::Text(text_res(t)),
            ResourceContents::Blob(b) => TResContents::Blob(blob_res(b)),
            ResourceContents::Unknown(v) => TResContents::Unknown(v.clone()),
        },
        annotations: ann(&e.annotations),
        meta: e.meta.clone(),
        extra: e.extra.clone(),
    }
}

pub fn block(b: &ContentBlock) -> TBlock {
    TBlock::Known(match b {
        ContentBlock::Text(t) => TKnownBlock::Text(text(t)),
        ContentBlock::Image(i) => TKnownBlock::Image(image(i)),
        ContentBlock::Audio(a) => TKnownBlock::Audio(image(a)),
        ContentBlock::ResourceLink(l) => TKnownBlock::ResourceLink(link(l)),
        ContentBlock::Resource(e) => TKnownBlock::Resource(embedded(e)),
        ContentBlock::Unknown(v) => return TBlock::Unknown(v.clone()),
    })
}

pub fn tool(t: &Tool) -> TTool {
    TTool {
        name: t.name.clone(),
        title: t.title.clone(),
        description: t.description.clone(),
        input_schema: t.input_schema.clone(),
        output_schema: t.output_schema.clone(),
        annotations: t
            .annotations
            .as_ref()
            .map(|a: &ToolAnnotations| TToolAnnotations {
                title: a.title.clone(),
                read_only_hint: a.read_only_hint,
                destructive_hint: a.destructive_hint,
                idempotent_hint: a.idempotent_hint,
                open_world_hint: a.open_world_hint,
                extra: a.extra.clone(),
            }),
        icons: t.icons.clone(),
        execution: t.execution.clone(),
        meta: t.meta.clone(),
        extra: t.extra.clone(),
    }
}

pub fn list_tools(l: &ListToolsResult) -> TListTools {
    TListTools {
        tools: l.tools.iter().map(tool).collect(),
        next_cursor: l.next_cursor.clone(),
        meta: l.meta.clone(),
        extra: l.extra.clone(),
    }
}

pub fn call_result(r: &CallToolResult) -> TCallResult {
    TCallResult {
        content: r.content.iter().map(block).collect(),
        structured_content: r.structured_content.clone(),
        is_error: r.is_error,
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

pub fn implementation(i: &Implementation) -> TImplementation {
    TImplementation {
        name: i.name.clone(),
        version: i.version.clone(),
        title: i.title.clone(),
        extra: i.extra.clone(),
    }
}

pub fn initialize(r: &InitializeResult) -> TInitialize {
    TInitialize {
        protocol_version: r.protocol_version.clone(),
        capabilities: r.capabilities.clone(),
        server_info: implementation(&r.server_info),
        instructions: r.instructions.clone(),
        meta: r.meta.clone(),
        extra: r.extra.clone(),
    }
}

pub fn discover(d: &DiscoverResult) -> TDiscover {
    TDiscover {
        supported_versions: d.supported_versions.clone(),
        capabilities: d.capabilities.clone(),
        instructions: d.instructions.clone(),
        ttl_ms: d.ttl_ms.clone(),
        cache_scope: d.cache_scope.clone(),
        result_type: d.result_type.clone(),
        meta: d.meta.clone(),
        extra: d.extra.clone(),
    }
}
