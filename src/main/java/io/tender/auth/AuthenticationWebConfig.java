package io.tender.auth;

import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import java.util.List;

@Configuration(proxyBeanMethods = false)
class AuthenticationWebConfig implements WebMvcConfigurer {

    static {
        // The caller comes from the Authorization header; it is no request parameter, so keep it out of the document.
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class);
    }

    private final Authentication authentication;

    AuthenticationWebConfig(Authentication authentication) {
        this.authentication = authentication;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(authentication);
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(authentication);
    }
}
